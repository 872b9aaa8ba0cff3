-- Documents (issue 15): uploaded files, their bytes, what extraction read out of them, and the
-- durable processing job. The bytes live in PostgreSQL so every svc process reads them alike.

-- A file's bytes. A direct upload creates the row first (declared size and MD5) and fills `data`
-- when the client PUTs the bytes; a multipart upload writes both at once.
CREATE TABLE document_blobs (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  filename      text NOT NULL,
  -- What the client said it is; the document's content type is sniffed from the bytes.
  declared_content_type text,
  byte_size     bigint NOT NULL,
  -- base64 MD5 the client declared (direct upload) or svc computed (multipart).
  checksum      text NOT NULL,
  data          bytea,
  created_at    timestamptz NOT NULL,
  uploaded_at   timestamptz
);
CREATE INDEX document_blobs_account ON document_blobs (account_id, created_at DESC);

CREATE TABLE documents (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id             uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  blob_id                uuid NOT NULL REFERENCES document_blobs (id),
  name                   text NOT NULL,
  source                 text NOT NULL DEFAULT 'api',
  file_name              text NOT NULL,
  file_content_type      text NOT NULL,
  file_size_bytes        bigint NOT NULL,
  -- hex SHA-256 of the bytes: the same content twice in one account is a duplicate.
  sha256                 text NOT NULL,
  rotation               integer NOT NULL DEFAULT 0,
  document_type          text NOT NULL DEFAULT 'other',
  document_type_manual   text,
  classification_notes   text,
  extraction_status      text NOT NULL DEFAULT 'pending',
  extracted_text         text,
  -- { containers: [], bills_of_lading: [], bookings: [] } found by the last extraction.
  numbers                jsonb NOT NULL DEFAULT '{}',
  extracted_data_manual  jsonb,
  shipment_ids           uuid[] NOT NULL DEFAULT '{}',
  container_ids          uuid[] NOT NULL DEFAULT '{}',
  last_representation_id uuid,
  -- The processing job: 'extract' or 'relink', due at next_attempt_at, leased by locked_until
  -- (the claim of src/store/leases.ts, as tracking requests and shipments are).
  job                    text,
  job_attempts           integer NOT NULL DEFAULT 0,
  next_attempt_at        timestamptz,
  locked_until           timestamptz,
  discarded_at           timestamptz,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE INDEX documents_account ON documents (account_id, created_at DESC) WHERE discarded_at IS NULL;
CREATE UNIQUE INDEX documents_account_content ON documents (account_id, sha256) WHERE discarded_at IS NULL;
CREATE INDEX documents_due ON documents (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- Each extraction's result; the document points at its latest.
CREATE TABLE document_representations (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  document_id     uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  schema_version  text NOT NULL,
  payload         jsonb NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX document_representations_document ON document_representations (document_id);

-- The key svc signs document links with when SVC_DOCUMENT_LINK_SECRET is unset: made once here,
-- so every svc process on this database signs and verifies alike. Two random uuids: 244 bits.
CREATE TABLE document_link_secret (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  secret   text NOT NULL
);
INSERT INTO document_link_secret (secret) VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
