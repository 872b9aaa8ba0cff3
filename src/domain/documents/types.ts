// The document types svc classifies into, and the JSON Schema of each type's extracted fields
// (GET /v2/documents/types, GET /v2/document_schemas/{type@version}). A schema version is the
// date it took effect; the current one is the version extraction writes.

export interface DocumentTypeInfo {
  code: string;
  label: string;
  description: string;
  /** The fields extraction reads for this type (JSON Schema properties). */
  fields: Record<string, Record<string, unknown>>;
}

const text = (description: string) => ({ type: 'string', description });
const list = (description: string) => ({ type: 'array', items: { type: 'string' }, description });
const date = (description: string) => ({ type: 'string', format: 'date', description });

// Numbers every shipping document may carry: what svc links documents to shipments and containers by.
const TRACKING_NUMBERS = {
  container_numbers: list('Container numbers (ISO 6346, check digit verified)'),
  bill_of_lading_numbers: list('Bill of lading numbers'),
  booking_numbers: list('Booking numbers'),
};

const TYPES: readonly DocumentTypeInfo[] = [
  {
    code: 'bill_of_lading',
    label: 'Bill of Lading',
    description: 'The carrier’s receipt for the cargo and contract of carriage.',
    fields: { ...TRACKING_NUMBERS, shipper: text('Shipper'), consignee: text('Consignee'), port_of_lading: text('Port of loading'), port_of_discharge: text('Port of discharge'), vessel_name: text('Vessel'), voyage_number: text('Voyage') },
  },
  {
    code: 'arrival_notice',
    label: 'Arrival Notice',
    description: 'The carrier’s notice that the cargo is about to arrive.',
    fields: { ...TRACKING_NUMBERS, eta: date('Estimated arrival'), port_of_discharge: text('Port of discharge'), last_free_day: date('Last free day') },
  },
  {
    code: 'commercial_invoice',
    label: 'Commercial Invoice',
    description: 'The seller’s invoice for the goods.',
    fields: { ...TRACKING_NUMBERS, invoice_number: text('Invoice number'), invoice_date: date('Invoice date'), seller: text('Seller'), buyer: text('Buyer'), total_amount: { type: 'number', description: 'Total amount' }, currency: text('ISO 4217 currency') },
  },
  {
    code: 'packing_list',
    label: 'Packing List',
    description: 'What is packed in each package or container.',
    fields: { ...TRACKING_NUMBERS, package_count: { type: 'integer', description: 'Number of packages' }, gross_weight_kg: { type: 'number', description: 'Gross weight in kilograms' } },
  },
  {
    code: 'booking_confirmation',
    label: 'Booking Confirmation',
    description: 'The carrier’s confirmation of a booking.',
    fields: { ...TRACKING_NUMBERS, vessel_name: text('Vessel'), voyage_number: text('Voyage'), cut_off: date('Cargo cut-off') },
  },
  {
    code: 'delivery_order',
    label: 'Delivery Order',
    description: 'The release of the cargo to a named party.',
    fields: { ...TRACKING_NUMBERS, release_to: text('Party the cargo is released to') },
  },
  {
    code: 'customs_entry',
    label: 'Customs Entry',
    description: 'A customs declaration for the goods.',
    fields: { ...TRACKING_NUMBERS, entry_number: text('Entry number'), entry_date: date('Entry date') },
  },
  { code: 'other', label: 'Other', description: 'A document of no type svc knows.', fields: { ...TRACKING_NUMBERS } },
];

export const DOCUMENT_TYPES: readonly DocumentTypeInfo[] = TYPES;
export const DOCUMENT_TYPE_CODES: readonly string[] = TYPES.map((t) => t.code);
export const isDocumentType = (code: string): boolean => DOCUMENT_TYPE_CODES.includes(code);

/** The one schema version so far: every type's fields took effect on this date. */
export const SCHEMA_VERSION = '2026-11-01';
export const SCHEMA_ACTIVE_AT = new Date(`${SCHEMA_VERSION}T00:00:00Z`);

export const fullVersion = (code: string, version = SCHEMA_VERSION) => `${code}@${version}`;

export interface DocumentSchema {
  type: DocumentTypeInfo;
  version: string;
  fullVersion: string;
  current: boolean;
  payload: Record<string, unknown>;
}

/** The schema named `<type>@<version>`, or undefined when there is none by that name. */
export function findDocumentSchema(id: string): DocumentSchema | undefined {
  const [code, version, ...rest] = id.split('@');
  const type = TYPES.find((t) => t.code === code);
  if (!type || version !== SCHEMA_VERSION || rest.length > 0) return undefined;
  return {
    type,
    version,
    fullVersion: fullVersion(code, version),
    current: true,
    payload: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `svc:document_schemas/${fullVersion(code, version)}`,
      title: type.label,
      description: type.description,
      type: 'object',
      properties: type.fields,
      additionalProperties: false,
    },
  };
}
