-- Features an operator can switch off for one account (svc accounts features). The column lists
-- what is off, not what is on: every account has every feature unless told otherwise, and a
-- feature added later is on everywhere without a migration. Names are checked by the service
-- that writes them (src/services/features.ts), not here, so adding one touches no schema.
ALTER TABLE accounts ADD COLUMN disabled_features text[] NOT NULL DEFAULT '{}';
