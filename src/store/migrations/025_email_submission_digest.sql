-- E-mail submissions are idempotent per account (issue 15): a sender whose delivery failed after
-- svc had stored the message for one of its accounts (a crash before the 250, a later recipient
-- failing) sends the same bytes again, and the account keeps the one submission it has.
-- raw_sha256 is the SHA-256 (hex) of the message as received, its Message-ID header included.
ALTER TABLE email_submissions ADD COLUMN raw_sha256 text;
UPDATE email_submissions s SET raw_sha256 = encode(sha256(b.data), 'hex') FROM document_blobs b WHERE b.id = s.raw_blob_id AND b.data IS NOT NULL;
-- Copies stored before this migration keep their digest out of the index (the oldest is the one
-- a repeat finds).
UPDATE email_submissions s SET raw_sha256 = NULL
 WHERE EXISTS (SELECT 1 FROM email_submissions o WHERE o.account_id = s.account_id AND o.raw_sha256 = s.raw_sha256 AND (o.created_at, o.id) < (s.created_at, s.id));
CREATE UNIQUE INDEX email_submissions_account_raw ON email_submissions (account_id, raw_sha256) WHERE raw_sha256 IS NOT NULL;
