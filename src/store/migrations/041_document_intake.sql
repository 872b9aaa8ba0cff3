-- Document intake shared fairly between accounts and kept within each account's limits.
--
-- The job claim goes account by account (src/store/documents.ts claimDueDocuments): the accounts
-- with a job are found by a skip scan of the first index, each one's oldest due job by a range of
-- it, and how many jobs an account has running (leased) by a range of the second, so a claim
-- costs in accounts with work, not in the size of one account's backlog.
CREATE INDEX documents_account_jobs ON documents (account_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX documents_account_leases ON documents (account_id, locked_until) WHERE next_attempt_at IS NOT NULL;
-- The due-time index of migration 021 goes: walked in due order and filtered by account, it read
-- past 37,500 of one account's jobs for each other account (315 ms a claim at a backlog of
-- 50,000; 1.4 ms through the account's own range), and the planner, estimating an account's share
-- of the jobs as an even one, took it.
DROP INDEX documents_due;

-- The documents an account added in a recent window, discarded ones too: discarding a document
-- gives back no room under the limit on new ones.
CREATE INDEX documents_account_added ON documents (account_id, created_at);

-- The numbers a document names that svc did not track by itself, and why:
-- [{ number, request_type, reason, detail }]; see the document worker.
ALTER TABLE documents ADD COLUMN not_tracked jsonb NOT NULL DEFAULT '[]';
