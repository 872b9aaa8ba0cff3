-- Webhook subscriptions: where an account wants its events POSTed, which events, and the
-- secret svc signs each delivery with. Deliveries (issue 4, second part) read from here.
CREATE TABLE webhooks (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url         text NOT NULL,
  active      boolean NOT NULL DEFAULT true,
  -- Event names from the catalogue in src/domain/webhooks/events.ts; the API keeps them unique.
  events      text[] NOT NULL CHECK (cardinality(events) > 0),
  -- Extra request headers as [{"name": …, "value": …}]; NULL when there are none.
  headers     jsonb CHECK (headers IS NULL OR jsonb_typeof(headers) = 'array'),
  -- 32 random bytes as hex; the HMAC key of every delivery, so it is kept in clear.
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX webhooks_account_created ON webhooks (account_id, created_at DESC, id);
