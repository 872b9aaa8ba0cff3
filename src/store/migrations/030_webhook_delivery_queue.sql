-- Webhook delivery at the cost of its HTTP request (issue 14): the due queue moves out of
-- webhook_notifications into a narrow table of its own, one row per pending notification, deleted
-- when the notification is settled. A claim leases a queue row by writing columns no index holds,
-- and a notification's own row is written once per attempt, by its record, in columns no index
-- holds either: both are HOT updates (no index entry written, the old version pruned in place).
-- Before, the claim and the record each wrote a notification row whose due time and status sat in
-- an index, so each wrote a new entry in all of the table's four indexes.
--
-- In steps (store/migrate.ts), each committing on its own: the table and the triggers that keep it
-- first (from then on, every pending notification written is queued), then the backfill of the
-- pending notifications already there, in batches, then the old due index dropped CONCURRENTLY.
-- Every step may run again after a crash.

CREATE TABLE IF NOT EXISTS webhook_delivery_queue (
  -- Kept by the triggers below rather than a foreign key, whose check would lock every new
  -- notification row as it is queued (a write of the row in the fan-out's transaction).
  notification_id  uuid PRIMARY KEY,
  webhook_id       uuid NOT NULL,
  -- When the next attempt is due: '-infinity' for at once (new, redelivered, or handed back).
  due_at           timestamptz NOT NULL DEFAULT '-infinity',
  -- While an attempt runs, the end of its lease: the row is not due again until then. A worker
  -- that dies mid-attempt leaves it due when the lease ends.
  leased_until     timestamptz NOT NULL DEFAULT '-infinity',
  -- Attempts claimed so far, the one running included: the next attempt's number is this plus one.
  attempts         integer NOT NULL DEFAULT 0,
  -- When the row was queued (or last settled to retry): a backlog's age counts from the latest of this and due_at.
  queued_at        timestamptz NOT NULL
)
-- Half of each page is room for its rows' leases (a HOT update needs its new version on the same
-- page); the rows are short-lived, so the table is vacuumed after fewer changes than most.
WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0.05);
-- Per receiver, its pending notifications in due order: the fair claim walks it receiver by receiver.
CREATE INDEX IF NOT EXISTS webhook_delivery_queue_receiver_due ON webhook_delivery_queue (webhook_id, due_at);
-- A notification is written twice in its life, inserted and settled: new pages keep room for
-- every row's settling version, so that update stays on its page (HOT). With less room, rows
-- settled together (written together, so on the same pages) overflow their page after the first
-- third or so, and each of the rest writes an entry in every index. Pruning takes the old versions
-- back in place, so the room is what the table holds for it, not more.
ALTER TABLE webhook_notifications SET (fillfactor = 50);

-- Every pending notification written is queued, in the same statement's transaction (the fan-out
-- of recorded events inserts them; tests and seeds may insert them directly).
CREATE OR REPLACE FUNCTION webhook_notifications_enqueue() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO webhook_delivery_queue (notification_id, webhook_id, due_at, attempts, queued_at)
  SELECT id, webhook_id, next_attempt_at, attempts, created_at FROM inserted WHERE delivery_status = 'pending'
  ON CONFLICT (notification_id) DO NOTHING;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER webhook_notifications_enqueued AFTER INSERT ON webhook_notifications
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION webhook_notifications_enqueue();

-- A notification removed (its webhook, event or account deleted) takes its queue row and its
-- attempt logs with it. The logs' foreign keys go: each checked its row's notification and account
-- as it was logged, one look-up and one row lock apiece (the record writes a log only for a
-- notification it has just updated, and accounts' deletions reach the logs through their notifications).
ALTER TABLE webhook_notification_logs DROP CONSTRAINT IF EXISTS webhook_notification_logs_account_id_fkey,
  DROP CONSTRAINT IF EXISTS webhook_notification_logs_webhook_notification_id_fkey;
CREATE OR REPLACE FUNCTION webhook_notifications_dequeue() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  DELETE FROM webhook_delivery_queue q USING removed r WHERE q.notification_id = r.id;
  DELETE FROM webhook_notification_logs l USING removed r WHERE l.webhook_notification_id = r.id;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER webhook_notifications_dequeued AFTER DELETE ON webhook_notifications
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION webhook_notifications_dequeue();

-- migrate:step: the pending notifications already there, found through the old due index (one
-- receiver at a time, in batches by due time and id), each batch committed. A lease an old
-- worker holds is carried over as the row's due time, so it is not retaken before it ends.
DO $$
DECLARE
  hook uuid;
  after_due timestamptz;
  after_id uuid;
  last record;
BEGIN
  FOR hook IN SELECT DISTINCT webhook_id FROM webhook_notifications WHERE delivery_status = 'pending' LOOP
    after_due := '-infinity';
    after_id := '00000000-0000-0000-0000-000000000000';
    LOOP
      WITH batch AS (
        SELECT id, webhook_id, next_attempt_at, attempts, greatest(created_at, updated_at) AS queued_at FROM webhook_notifications
         WHERE webhook_id = hook AND delivery_status = 'pending' AND (next_attempt_at, id) > (after_due, after_id)
         ORDER BY next_attempt_at, id LIMIT 5000
      ), queued AS (
        INSERT INTO webhook_delivery_queue (notification_id, webhook_id, due_at, attempts, queued_at)
        SELECT id, webhook_id, next_attempt_at, attempts, queued_at FROM batch
        ON CONFLICT (notification_id) DO NOTHING
      )
      SELECT next_attempt_at, id INTO last FROM batch ORDER BY next_attempt_at DESC, id DESC LIMIT 1;
      EXIT WHEN NOT FOUND;
      after_due := last.next_attempt_at;
      after_id := last.id;
      COMMIT;
    END LOOP;
  END LOOP;
END
$$;

-- migrate:step: what an old worker settled while the backfill ran is not due.
DELETE FROM webhook_delivery_queue q USING webhook_notifications n WHERE n.id = q.notification_id AND n.delivery_status <> 'pending';

-- migrate:step: the old due index goes: while it held the status and the due time, every write of
-- a notification's delivery wrote new entries in all the table's indexes.
DROP INDEX CONCURRENTLY IF EXISTS webhook_notifications_receiver_due;
