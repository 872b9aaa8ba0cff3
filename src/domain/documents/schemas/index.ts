// The document schemas svc extracts to, one per document type, served by
// GET /v2/document_schemas/{type@version}. A schema changes by adding a version (a new date key),
// never by editing one: stored extractions name the version they follow.
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, type DocumentType, type FieldName } from '../extract/types.ts';
import { FIELD_SCHEMAS } from './fields.ts';

export const SCHEMA_VERSION = '2026-11-24';
const ACTIVE_AT = `${SCHEMA_VERSION}T00:00:00Z`;

/** The fields each document type carries. `other` keeps only what svc can track. */
export const DOCUMENT_FIELDS: Readonly<Record<DocumentType, readonly FieldName[]>> = {
  bill_of_lading: [
    'bill_of_lading_number', 'booking_number', 'shipping_line_scac', 'shipper', 'consignee', 'notify_party',
    'pod_vessel_name', 'pod_voyage_number', 'port_of_lading_locode', 'port_of_lading_name',
    'port_of_discharge_locode', 'port_of_discharge_name', 'container_numbers',
  ],
  booking_confirmation: [
    'booking_number', 'shipping_line_scac', 'shipper', 'pod_vessel_name', 'pod_voyage_number',
    'port_of_lading_locode', 'port_of_lading_name', 'port_of_discharge_locode', 'port_of_discharge_name',
    'pol_etd_at', 'pod_eta_at', 'container_numbers',
  ],
  arrival_notice: [
    'bill_of_lading_number', 'shipping_line_scac', 'consignee', 'notify_party', 'pod_vessel_name',
    'pod_voyage_number', 'port_of_lading_locode', 'port_of_lading_name', 'port_of_discharge_locode',
    'port_of_discharge_name', 'pod_eta_at', 'container_numbers',
  ],
  delivery_order: [
    'delivery_order_number', 'bill_of_lading_number', 'shipping_line_scac', 'consignee', 'pod_vessel_name',
    'pod_voyage_number', 'port_of_discharge_locode', 'port_of_discharge_name', 'container_numbers',
  ],
  commercial_invoice: [
    'invoice_number', 'invoice_date', 'shipper', 'consignee', 'bill_of_lading_number', 'pod_vessel_name',
    'port_of_lading_locode', 'port_of_lading_name', 'port_of_discharge_locode', 'port_of_discharge_name',
    'currency', 'total_amount', 'container_numbers',
  ],
  packing_list: [
    'invoice_number', 'shipper', 'consignee', 'bill_of_lading_number', 'total_packages', 'gross_weight_kg',
    'container_numbers',
  ],
  other: ['bill_of_lading_number', 'booking_number', 'container_numbers'],
};

const DESCRIPTIONS: Readonly<Record<DocumentType, string>> = {
  bill_of_lading: 'A bill of lading or sea waybill: the carrier’s receipt for the cargo and its contract of carriage.',
  booking_confirmation: 'The carrier’s confirmation of a booking: sailing, ports and equipment before loading.',
  arrival_notice: 'The carrier’s notice that cargo is about to arrive at the port of discharge.',
  delivery_order: 'The release of cargo to the consignee or its trucker at the port of discharge.',
  commercial_invoice: 'The seller’s invoice for the goods shipped.',
  packing_list: 'What is packed in the shipment: packages and weights.',
  other: 'Any other document; only the numbers svc can track are extracted.',
};

export interface DocumentSchema {
  document_type: DocumentType;
  label: string;
  schema_version: string;
  full_version: string;
  current: boolean;
  draft: boolean;
  active_at: string;
  schema_format: 'json_schema';
  description: string;
  schema_payload: Record<string, unknown>;
}

export const schemaId = (type: DocumentType, version = SCHEMA_VERSION): string => `${type}@${version}`;

function schemaOf(type: DocumentType): DocumentSchema {
  const fields = DOCUMENT_FIELDS[type];
  return {
    document_type: type,
    label: DOCUMENT_TYPE_LABELS[type],
    schema_version: SCHEMA_VERSION,
    full_version: schemaId(type),
    current: true,
    draft: false,
    active_at: ACTIVE_AT,
    schema_format: 'json_schema',
    description: DESCRIPTIONS[type],
    schema_payload: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `urn:svc:document_schema:${schemaId(type)}`,
      title: DOCUMENT_TYPE_LABELS[type],
      type: 'object',
      // Every field is optional: a document shows what it shows.
      properties: Object.fromEntries(fields.map((f) => [f, FIELD_SCHEMAS[f]])),
      additionalProperties: false,
    },
  };
}

/** Every schema version by its id, `<type>@<version>`. */
export const documentSchemas: ReadonlyMap<string, DocumentSchema> = new Map(DOCUMENT_TYPES.map((t) => [schemaId(t), schemaOf(t)]));

/** The schema a new extraction of `type` follows. */
export const currentSchema = (type: DocumentType): DocumentSchema => documentSchemas.get(schemaId(type))!;
