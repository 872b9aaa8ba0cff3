// What extraction reads out of a document: its type, the numbers svc can track, and the fields of
// the document type's schema (src/domain/documents/schemas/).

export const DOCUMENT_TYPES = [
  'bill_of_lading',
  'booking_confirmation',
  'arrival_notice',
  'delivery_order',
  'commercial_invoice',
  'packing_list',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_TYPE_LABELS: Readonly<Record<DocumentType, string>> = {
  bill_of_lading: 'Bill of lading',
  booking_confirmation: 'Booking confirmation',
  arrival_notice: 'Arrival notice',
  delivery_order: 'Delivery order',
  commercial_invoice: 'Commercial invoice',
  packing_list: 'Packing list',
  other: 'Other',
};

/** Numbers svc can track, each normalised (upper case, no blanks or dashes), in order of appearance. */
export interface ExtractedNumbers {
  /** ISO 6346 container numbers whose check digit passed; others are never accepted. */
  containers: string[];
  bills_of_lading: string[];
  bookings: string[];
}

export interface Party {
  company_name: string;
}

/** The union of every schema's fields; each document type's schema allows a subset of them. */
export interface DocumentFields {
  bill_of_lading_number?: string;
  booking_number?: string;
  container_numbers?: string[];
  shipping_line_scac?: string;
  shipper?: Party;
  consignee?: Party;
  notify_party?: Party;
  pod_vessel_name?: string;
  pod_voyage_number?: string;
  port_of_lading_locode?: string;
  port_of_lading_name?: string;
  port_of_discharge_locode?: string;
  port_of_discharge_name?: string;
  pol_etd_at?: string;
  pod_eta_at?: string;
  delivery_order_number?: string;
  invoice_number?: string;
  invoice_date?: string;
  currency?: string;
  total_amount?: number;
  total_packages?: number;
  gross_weight_kg?: number;
}
export type FieldName = keyof DocumentFields;

export interface Classification {
  type: DocumentType;
  /** 0 to 1: how far the best type's evidence stands above the others'. */
  confidence: number;
}

/** The engine's answer for one document, text already read. */
export interface TextExtraction extends Classification {
  /** The schema the fields follow, `<type>@<version>`. */
  schema_version: string;
  fields: DocumentFields;
  numbers: ExtractedNumbers;
}
