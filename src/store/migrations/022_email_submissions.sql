-- E-mail submissions (issue 15): a message mailed to an account's inbound address (SMTP) or
-- posted raw (POST /v2/email_submissions). Its attachments, and its subject and body as one text
-- document, become documents (source 'email') that extraction reads like any other.

-- The local part of the account's inbound address (<alias>@SVC_INBOUND_DOMAIN): random, so an
-- address cannot be guessed from another account's.
ALTER TABLE accounts ADD COLUMN inbound_alias text NOT NULL DEFAULT substr(replace(gen_random_uuid()::text, '-', ''), 1, 20);
CREATE UNIQUE INDEX accounts_inbound_alias ON accounts (inbound_alias);

CREATE TABLE email_submissions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  subject       text NOT NULL DEFAULT '',
  body          text,
  "from"        text[] NOT NULL DEFAULT '{}',
  "to"          text[] NOT NULL DEFAULT '{}',
  cc            text[] NOT NULL DEFAULT '{}',
  sent_at       timestamptz,
  message_id    text,
  in_reply_to   text,
  "references"  text[] NOT NULL DEFAULT '{}',
  content_type  text,
  -- 'smtp' or 'api': how the message came in.
  received_by   text NOT NULL,
  -- The message as received (its bytes in document_blobs), so nothing of it is lost whatever
  -- the parser made of it.
  raw_blob_id   uuid NOT NULL REFERENCES document_blobs (id),
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX email_submissions_account ON email_submissions (account_id, created_at DESC);

ALTER TABLE documents ADD COLUMN email_submission_id uuid REFERENCES email_submissions (id) ON DELETE SET NULL;
CREATE INDEX documents_email_submission ON documents (email_submission_id) WHERE email_submission_id IS NOT NULL;
