// Every field a document shows, read through the label vocabulary (labels.ts) and the value
// readers (values.ts); the document type's schema then keeps the fields it carries.
import type { Catalogue } from '../../inference/catalogue.ts';
import { inferNormalised } from '../../inference/infer.ts';
import { isLabelCell, LABELS } from './labels.ts';
import type { Label, Layout } from './layout.ts';
import { valuesAfter } from './layout.ts';
import { resolvePort, type PortIndex } from './ports.ts';
import type { DocumentFields, ExtractedNumbers } from './types.ts';
import { amountValue, countValue, dateValue, numberValue, partyValue, vesselValue, vesselVoyageValue, voyageValue, weightValue } from './values.ts';

export interface ExtractionContext {
  /** svc's carrier inference catalogue (src/refdata/inference.ts). */
  catalogue: Catalogue;
  ports: PortIndex;
}

const after = (layout: Layout, labels: readonly Label[]) => valuesAfter(layout, labels, isLabelCell);

/** The first value after `labels` that `read` accepts. */
function first<T>(layout: Layout, labels: readonly Label[], read: (raw: string) => T | null): T | undefined {
  for (const raw of after(layout, labels)) {
    const value = read(raw);
    if (value !== null) return value;
  }
  return undefined;
}

/** Every distinct value after `labels` that `read` accepts, in order. */
function all(layout: Layout, labels: readonly Label[], read: (raw: string) => string | null): string[] {
  const found = new Set<string>();
  for (const raw of after(layout, labels)) {
    const value = read(raw);
    if (value !== null) found.add(value);
  }
  return [...found];
}

/**
 * A labelled B/L or booking number, checked by svc's inference: a valid container number under
 * the label is a container, not a B/L, and a number inference calls invalid is dropped.
 */
function shipmentNumber(catalogue: Catalogue) {
  return (raw: string): string | null => {
    const n = numberValue(raw);
    if (n === null) return null;
    const inferred = inferNormalised(catalogue, n);
    if (inferred.number_type === 'container' && inferred.validation.is_valid) return null;
    return inferred.validation.is_valid === false && inferred.number_type !== 'container' ? null : n;
  };
}

/** Numbers svc can track: B/L and booking numbers by their labels, containers wherever they are. */
export function findNumbers(layout: Layout, containers: string[], catalogue: Catalogue): ExtractedNumbers {
  const read = shipmentNumber(catalogue);
  return {
    containers,
    bills_of_lading: all(layout, LABELS.bill_of_lading, read),
    bookings: all(layout, LABELS.booking, read),
  };
}

/** The line's SCAC when inference selects one from the B/L, the booking or the containers. */
function shippingLine(numbers: ExtractedNumbers, catalogue: Catalogue): string | undefined {
  for (const n of [...numbers.bills_of_lading, ...numbers.containers, ...numbers.bookings]) {
    const p = inferNormalised(catalogue, n).shipping_line;
    if (p.decision === 'auto_select' && p.selected) return p.selected.scac;
  }
  return undefined;
}

const party = (raw: string) => {
  const name = partyValue(raw);
  return name === null ? null : { company_name: name };
};

export function findFields(layout: Layout, numbers: ExtractedNumbers, context: ExtractionContext): DocumentFields {
  const port = (raw: string) => resolvePort(context.ports, raw);
  const combined = first(layout, LABELS.vessel_voyage, vesselVoyageValue);
  const pol = first(layout, LABELS.port_of_lading, port);
  const pod = first(layout, LABELS.port_of_discharge, port);
  const total = first(layout, LABELS.total_amount, amountValue);
  const fields: DocumentFields = {
    bill_of_lading_number: numbers.bills_of_lading[0],
    booking_number: numbers.bookings[0],
    container_numbers: numbers.containers,
    shipping_line_scac: shippingLine(numbers, context.catalogue),
    shipper: first(layout, LABELS.shipper, party),
    consignee: first(layout, LABELS.consignee, party),
    notify_party: first(layout, LABELS.notify_party, party),
    pod_vessel_name: combined?.vessel ?? first(layout, LABELS.vessel, vesselValue),
    pod_voyage_number: combined?.voyage ?? first(layout, LABELS.voyage, voyageValue),
    port_of_lading_locode: pol?.locode,
    port_of_lading_name: pol?.name,
    port_of_discharge_locode: pod?.locode,
    port_of_discharge_name: pod?.name,
    pol_etd_at: first(layout, LABELS.etd, dateValue),
    pod_eta_at: first(layout, LABELS.eta, dateValue),
    delivery_order_number: first(layout, LABELS.delivery_order, numberValue),
    invoice_number: first(layout, LABELS.invoice_number, (raw) => /^[A-Z0-9][A-Z0-9\-/]*\d[A-Z0-9\-/]*/i.exec(raw.trim())?.[0] ?? null),
    invoice_date: first(layout, LABELS.invoice_date, dateValue),
    currency: total?.currency,
    total_amount: total?.amount,
    total_packages: first(layout, LABELS.total_packages, countValue),
    gross_weight_kg: first(layout, LABELS.gross_weight, weightValue),
  };
  return fields;
}
