-- Custom fields (issue 15): an account's own fields on shipments, containers and tracking
-- requests. A definition says what a field holds; options list what an enum field may hold; one
-- row of custom_fields is one entity's value of one definition.

CREATE TABLE custom_field_definitions (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Shipment, Container or TrackingRequest, as the API names them; immutable.
  entity_type     text NOT NULL CHECK (entity_type IN ('Shipment', 'Container', 'TrackingRequest')),
  -- What values are called in the API; unique in the account and immutable.
  api_slug        text NOT NULL,
  display_name    text NOT NULL,
  description     text,
  data_type       text NOT NULL CHECK (data_type IN ('short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference')),
  -- The record type a reference field points at; set exactly when data_type is reference.
  reference_type  text CHECK ((reference_type IS NOT NULL) = (data_type = 'reference')),
  -- Rules beyond the data type ({required, pattern, max_length, …}); src/domain/custom-fields.
  validation      jsonb CHECK (validation IS NULL OR jsonb_typeof(validation) = 'object'),
  default_format  text,
  -- The value a field takes when a write leaves it out, in the API's canonical form.
  default_value   jsonb,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE UNIQUE INDEX custom_field_definitions_slug ON custom_field_definitions (account_id, api_slug);
CREATE INDEX custom_field_definitions_account_created ON custom_field_definitions (account_id, created_at DESC, id);

CREATE TABLE custom_field_options (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id     uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  definition_id  uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
  label          text NOT NULL,
  -- What values hold; unique in its definition and immutable, so stored values never go stale.
  value          text NOT NULL,
  position       integer,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX custom_field_options_value ON custom_field_options (definition_id, value);
CREATE INDEX custom_field_options_account_created ON custom_field_options (account_id, created_at DESC, id);

-- Values. `value` is what the API serves (canonical: numbers as numbers, dates as YYYY-MM-DD,
-- datetimes as ISO 8601 UTC, enum_multi as an array of option values, references as {type, id}).
-- `match_keys` is the same value as text keys prefixed by the definition's id (`<id>:<key>`), one
-- per option for enum_multi and one otherwise (numbers in canonical decimal, booleans true/false,
-- references type:id; none for null), so a list filter on one field's value is one containment
-- test that the GIN index answers exactly, whatever the data type. entity_id has no foreign key:
-- it names a row of one of three tables, as entity_type says.
CREATE TABLE custom_fields (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id     uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Deleting a definition deletes its values in the same statement.
  definition_id  uuid NOT NULL REFERENCES custom_field_definitions (id) ON DELETE CASCADE,
  entity_type    text NOT NULL CHECK (entity_type IN ('Shipment', 'Container', 'TrackingRequest')),
  entity_id      uuid NOT NULL,
  value          jsonb,
  match_keys     text[] NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
-- One value per entity and definition; also the index of an entity's values (nested routes,
-- GET /custom_fields?filter[entity_id]).
CREATE UNIQUE INDEX custom_fields_entity ON custom_fields (account_id, entity_type, entity_id, definition_id);
CREATE INDEX custom_fields_account_created ON custom_fields (account_id, created_at DESC, id);
CREATE INDEX custom_fields_definition ON custom_fields (definition_id, created_at DESC, id);
-- List filters on shipments and containers (filter[custom_fields][<api_slug>]). Without
-- fastupdate: values are written by people, rarely, while lists are read all the time, and GIN's
-- pending list (new entries kept unsorted until vacuum) made every lookup read it all (9 ms for
-- 20 matches among 60,000 fresh values, against well under 1 ms from the index proper).
CREATE INDEX custom_fields_match_keys ON custom_fields USING gin (match_keys) WITH (fastupdate = off);
