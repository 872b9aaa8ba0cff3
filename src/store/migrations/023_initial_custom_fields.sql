-- Custom field values a tracking request brings for the shipment and containers it will become
-- (POST /v2/tracking_requests initial_custom_fields, issue 15). Checked when the request is
-- accepted and kept here in their canonical form, by definition id:
--   {"shipment": [{"definition_id", "value", "keys"}], "containers": [{"definition_id", "value", "keys", "number"}]}
-- (number null: every container of the shipment). When the request resolves, the worker copies
-- them onto the shipment and its containers in the same transaction (src/services/initial-custom-fields.ts).
ALTER TABLE tracking_requests ADD COLUMN initial_custom_fields jsonb;
