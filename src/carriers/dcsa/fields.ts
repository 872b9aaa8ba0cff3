// Field rules shared by the 2.2 and 3.0 normalisers.
import type { CarrierEvent, ModeOfTransport } from '../../domain/tracking/carrier-events.ts';
import { verifiedImo } from '../../domain/tracking/imo.ts';

const MODES: readonly string[] = ['VESSEL', 'RAIL', 'TRUCK', 'BARGE'] satisfies ModeOfTransport[];

/** 3.0 adds MULTIMODAL, which names no single mode: null. */
export function modeOfTransport(value: string | undefined): ModeOfTransport | null {
  return value !== undefined && MODES.includes(value) ? (value as ModeOfTransport) : null;
}

/** The railroad of a rail call, when the carrier names it with a SCAC (2 to 4 letters). */
export function railOperator(mode: string | undefined, code: string | undefined): string | null {
  const scac = code?.toUpperCase();
  return modeOfTransport(mode) === 'RAIL' && scac && /^[A-Z]{2,4}$/.test(scac) ? scac : null;
}

/**
 * The container an event names through shipper references (type EQ). Several distinct
 * containers mean the event concerns the shipment as a whole, so it is pinned to none.
 */
export function equipmentFromReferences(containerNumbers: string[]): string | null {
  const distinct = new Set(containerNumbers);
  return distinct.size === 1 ? containerNumbers[0] : null;
}

// A transport call has two voyages: the one the vessel arrived on (import) and the one it
// leaves on (export). Moves towards the vessel (gate-in, load, departure) belong to the voyage
// leaving the call; everything else (arrival, discharge, gate-out…) to the voyage that arrived.
// When the preferred one is missing the other is better than nothing (many carriers send one
// number for both).
const OUTBOUND_CODES = new Set(['GTIN', 'LOAD', 'DEPA']);

export function voyageNumber(code: string, exportVoyage: string | undefined, importVoyage: string | undefined): string | null {
  const [preferred, other] = OUTBOUND_CODES.has(code) ? [exportVoyage, importVoyage] : [importVoyage, exportVoyage];
  return preferred ?? other ?? null;
}

/**
 * The vessel a transport call names. An IMO number that fails its check digit is left out: it
 * stays in the event as sent (raw_events) but is never shown as the vessel's.
 */
export function vessel(imo: string | undefined, name: string | undefined): CarrierEvent['vessel'] {
  return imo === undefined && name === undefined ? null : { imo: verifiedImo(imo), name: name ?? null };
}

/** A transport call as both versions name it, reduced to the members the normalisers read. */
export interface CallParts {
  mode: string | undefined;
  vesselImo: string | undefined;
  vesselName: string | undefined;
  exportVoyage: string | undefined;
  importVoyage: string | undefined;
  railOperatorCode: string | undefined;
  sequence: number | undefined;
  id: string | undefined;
}

type CallFields = Pick<CarrierEvent, 'modeOfTransport' | 'vessel' | 'voyageNumber' | 'railOperator' | 'transportCallSequence' | 'transportCallId'>;

/** What an event tells of its transport call; every member null when it has none. */
export function callFields(code: string, call: CallParts | undefined): CallFields {
  return {
    modeOfTransport: modeOfTransport(call?.mode),
    vessel: vessel(call?.vesselImo, call?.vesselName),
    voyageNumber: voyageNumber(code, call?.exportVoyage, call?.importVoyage),
    railOperator: railOperator(call?.mode, call?.railOperatorCode),
    transportCallSequence: call?.sequence ?? null,
    transportCallId: call?.id ?? null,
  };
}

/** A facility code is kept only when it comes from the SMDG terminal code list. */
export function smdgCode(place: { facilityCode?: string; facilityCodeListProvider?: string } | undefined): string | null {
  return place?.facilityCode !== undefined && place.facilityCodeListProvider === 'SMDG' ? place.facilityCode : null;
}
