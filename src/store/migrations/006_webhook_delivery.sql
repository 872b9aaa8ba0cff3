-- Webhook delivery: every recorded event becomes one notification per active webhook of its
-- account that subscribes to it, in the same transaction as the event, and every attempt to
-- deliver a notification is logged. The delivery worker claims due notifications the way the
-- tracking worker claims due requests: an indexed due time, pushed forward as a lease.

-- Per-container position of an event (1, 2, 3…), so receivers can order what they get.
ALTER TABLE domain_events ADD COLUMN sequence integer;
CREATE UNIQUE INDEX domain_events_container_sequence ON domain_events (container_id, sequence) WHERE container_id IS NOT NULL;

ALTER TABLE webhooks
  ADD COLUMN last_succeeded_at  timestamptz,
  -- The first failed attempt since the last success; deliveries that keep failing from then on
  -- for long enough deactivate the webhook.
  ADD COLUMN failing_since      timestamptz,
  ADD COLUMN deactivated_at     timestamptz,
  ADD COLUMN deactivated_reason text;

CREATE TABLE webhook_notifications (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id       uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  webhook_id       uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  domain_event_id  bigint NOT NULL REFERENCES domain_events (id) ON DELETE CASCADE,
  event            text NOT NULL,
  delivery_status  text NOT NULL DEFAULT 'pending' CHECK (delivery_status IN ('pending', 'succeeded', 'failed')),
  -- Attempts made so far (the logs count them too), and failed ones since the last
  -- (re)delivery request, which drive the retry schedule.
  attempts         integer NOT NULL DEFAULT 0,
  retries          integer NOT NULL DEFAULT 0,
  -- Due now when '-infinity'; while an attempt runs, the end of its lease.
  next_attempt_at  timestamptz NOT NULL DEFAULT '-infinity',
  delivered_at     timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX webhook_notifications_due ON webhook_notifications (next_attempt_at) WHERE delivery_status = 'pending';
CREATE INDEX webhook_notifications_account_created ON webhook_notifications (account_id, created_at DESC, id DESC);
CREATE INDEX webhook_notifications_webhook ON webhook_notifications (webhook_id);

CREATE TABLE webhook_notification_logs (
  id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id               uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  webhook_notification_id  uuid NOT NULL REFERENCES webhook_notifications (id) ON DELETE CASCADE,
  attempt                  integer NOT NULL,
  url                      text NOT NULL,
  succeeded                boolean NOT NULL,
  status_code              integer,
  duration_ms              integer NOT NULL,
  error                    text,
  -- The first KiB of what the receiver answered.
  response_body            text,
  created_at               timestamptz NOT NULL
);
CREATE INDEX webhook_notification_logs_notification ON webhook_notification_logs (webhook_notification_id, attempt);
