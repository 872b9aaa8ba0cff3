// The JSON Schema of each extracted field, written once: every document type's schema picks the
// fields it carries from here. Names follow the shipment attributes of the API (bill_of_lading_number,
// port_of_lading_locode, pod_eta_at…) so an extraction reads like the shipment it will become.
import type { FieldName } from '../extract/types.ts';

const text = (description: string, extra: object = {}) => ({ type: 'string', minLength: 1, description, ...extra });
const LOCODE = { pattern: '^[A-Z]{2}[A-Z2-9]{3}$' };
const NUMBER = { pattern: '^[A-Z0-9]{4,35}$' };
// Documents give dates without time or zone: the date as written, not an instant.
const date = (description: string) => ({ type: 'string', format: 'date', description: `${description} (YYYY-MM-DD, as the document writes it)` });
const party = (description: string) => ({
  type: 'object',
  description,
  properties: { company_name: text('The company name as written') },
  required: ['company_name'],
  additionalProperties: false,
});

export const FIELD_SCHEMAS: Readonly<Record<FieldName, object>> = {
  bill_of_lading_number: text('Bill of lading (or sea waybill) number, normalised', NUMBER),
  booking_number: text("Carrier's booking number, normalised", NUMBER),
  container_numbers: {
    type: 'array',
    description: 'ISO 6346 container numbers whose check digit passed, in order of appearance',
    items: { type: 'string', pattern: '^[A-Z]{3}[UJZ]\\d{7}$' },
    uniqueItems: true,
  },
  shipping_line_scac: text('SCAC of the shipping line, inferred from the B/L prefix or the container owner codes', { pattern: '^[A-Z]{2,4}$' }),
  shipper: party('Shipper (exporter, seller)'),
  consignee: party('Consignee (importer, buyer)'),
  notify_party: party('Notify party'),
  pod_vessel_name: text('Vessel name (upper case)'),
  pod_voyage_number: text('Voyage number', { pattern: '^[A-Z0-9]{2,12}$' }),
  port_of_lading_locode: text('Port of loading, UN/LOCODE', LOCODE),
  port_of_lading_name: text("Port of loading, svc's name for it"),
  port_of_discharge_locode: text('Port of discharge, UN/LOCODE', LOCODE),
  port_of_discharge_name: text("Port of discharge, svc's name for it"),
  pol_etd_at: date('Estimated departure from the port of loading'),
  pod_eta_at: date('Estimated arrival at the port of discharge'),
  delivery_order_number: text('Delivery order number, normalised', NUMBER),
  invoice_number: text('Invoice number as written'),
  invoice_date: date('Invoice date'),
  currency: text('ISO 4217 currency code of the total', { pattern: '^[A-Z]{3}$' }),
  total_amount: { type: 'number', minimum: 0, description: 'Invoice total' },
  total_packages: { type: 'integer', minimum: 0, description: 'Number of packages (cartons, pallets…)' },
  gross_weight_kg: { type: 'number', minimum: 0, description: 'Total gross weight in kilograms' },
};
