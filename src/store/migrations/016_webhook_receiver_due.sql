-- Fair webhook delivery: a worker claims due notifications receiver by receiver (each webhook
-- gets at most its concurrency cap), so it needs, per webhook, the pending notifications in due
-- order. The recursive walk over this index also finds which webhooks have pending work without
-- reading the webhooks that have none.
CREATE INDEX webhook_notifications_receiver_due ON webhook_notifications (webhook_id, next_attempt_at) WHERE delivery_status = 'pending';
-- It serves the due count and the old due-order claim too, and the old index would tempt the
-- planner into scanning every receiver's due rows to find one receiver's.
DROP INDEX webhook_notifications_due;
