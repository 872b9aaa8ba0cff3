-- Push subscriptions at the carrier: callbacks for a shipment are verified with its own secret.
ALTER TABLE shipments
  ADD COLUMN carrier_subscription_id text,
  ADD COLUMN carrier_subscription_secret bytea;
