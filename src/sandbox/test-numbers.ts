// The documented test numbers: one per outcome svc must handle. TEST-TR-SUCCEEDED and
// TEST-TR-FAILED are the reference service's own two (digest §2); the rest give every failure
// behaviour and journey shape a fixed, repeatable number. The README lists the same table.
import type { FailedReason, NumberType } from '../carriers/types.ts';

export type Behaviour =
  /** A journey, published as it happens. */
  | { kind: 'journey' }
  /** 404: the carrier says the number does not exist. */
  | { kind: 'not_found' }
  /** 200 with [] for ever: a B/L the carrier has not (yet) manifested. */
  | { kind: 'never_manifested' }
  /** 200 with [] until `days` after the first lookup, then the journey with everything published so far. */
  | { kind: 'manifest_after'; days: number }
  /** The booking is confirmed, then cancelled (SHIPMENT CANC on the BKG). */
  | { kind: 'booking_cancelled' }
  /** 400: the carrier rejects the number's format. */
  | { kind: 'invalid_number' }
  /** 403: the number exists but the carrier withholds its data. */
  | { kind: 'withheld' }
  /** 503 for the first `requests` event queries, then the journey. */
  | { kind: 'unreachable_first'; requests: number }
  /** 200 with a body that is not JSON for the first `requests` event queries, then the journey. */
  | { kind: 'unparsable_first'; requests: number };

/** A fixed route for a test journey (UN/LOCODEs). */
export interface RouteSpec {
  origin?: string;
  pol: string;
  transshipments: string[];
  pod: string;
  /**
   * The first leg is meant as a feeder to the first transshipment port, by barge or by a small ship.
   * A barge is taken as given; a ship is not chosen here: like every leg, the first is a feeder (and
   * gets a feeder ship) when the feeder rule (feeder-rule.ts) says so, which a test checks for the
   * test numbers that name one.
   */
  feeder?: 'BARGE' | 'VESSEL';
  /** Inland rail destination after the port of discharge. */
  rail?: string;
}

/** Constraints on a test journey; anything left out is drawn like any other journey. */
export interface ShapeSpec {
  route?: RouteSpec;
  holds?: 'none' | 'customs_and_freight';
  delay?: 'none' | 'large';
  /** Days between the journey's start and its first lookup. */
  offsetDays?: number;
  containers?: number;
}

export interface TestNumber {
  number: string;
  scac: string;
  numberType: NumberType;
  outcome: string;
  /** Why svc's tracking request should end `failed`; null when it ends `created` (later `tracking_stopped`). */
  failedReason: FailedReason | null;
  behaviour: Behaviour;
  shape?: ShapeSpec;
}

const FIXED = { offsetDays: 3, delay: 'none', holds: 'none' } as const;

export const TEST_NUMBERS: readonly TestNumber[] = [
  {
    number: 'TEST-TR-SUCCEEDED',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Found: a direct journey Shanghai → Los Angeles, two boxes (tracking_request.succeeded)',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, containers: 2, route: { pol: 'CNSHA', transshipments: [], pod: 'USLAX' } },
  },
  {
    number: 'TEST-TR-FAILED',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: '404 for any number type: the carrier does not know the number (tracking_request.failed, not_found)',
    failedReason: 'not_found',
    behaviour: { kind: 'not_found' },
  },
  {
    number: 'SBXU0004040',
    scac: 'TEST',
    numberType: 'container',
    outcome: '404: unknown container (fails at once with not_found)',
    failedReason: 'not_found',
    behaviour: { kind: 'not_found' },
  },
  {
    number: 'TEST-BL-NEVER',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: '200 with [] for ever: never manifested (awaiting_manifest, then expired after 7 days)',
    failedReason: 'expired',
    behaviour: { kind: 'never_manifested' },
  },
  {
    number: 'TEST-BL-LATE',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: '200 with [] for the first 2 days after the first lookup, then the journey (awaiting_manifest, then created)',
    failedReason: null,
    behaviour: { kind: 'manifest_after', days: 2 },
    shape: { ...FIXED, route: { pol: 'CNNGB', transshipments: [], pod: 'USLGB' } },
  },
  {
    number: 'TEST-BKG-CANCELLED',
    scac: 'TEST',
    numberType: 'booking_number',
    outcome: 'Booking confirmed (SHIPMENT CONF BKG), then cancelled a day and a half later (SHIPMENT CANC BKG): booking_cancelled',
    failedReason: 'booking_cancelled',
    behaviour: { kind: 'booking_cancelled' },
    shape: FIXED,
  },
  {
    number: 'TEST-INVALID',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: '400: the carrier rejects the number (invalid_number)',
    failedReason: 'invalid_number',
    behaviour: { kind: 'invalid_number' },
  },
  {
    number: 'TEST-WITHHELD',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: '403: the carrier withholds the data (data_unavailable)',
    failedReason: 'data_unavailable',
    behaviour: { kind: 'withheld' },
  },
  {
    number: 'TEST-UNREACHABLE',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: '503 for the first 3 event queries, then the journey (retried, then created)',
    failedReason: null,
    behaviour: { kind: 'unreachable_first', requests: 3 },
    shape: { ...FIXED, route: { pol: 'CNYTN', transshipments: [], pod: 'USOAK' } },
  },
  {
    number: 'TEST-GARBLED',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'A body that is not JSON for the first 2 event queries, then the journey (unrecognized_response, retried, then created)',
    failedReason: null,
    behaviour: { kind: 'unparsable_first', requests: 2 },
    shape: { ...FIXED, route: { pol: 'KRPUS', transshipments: [], pod: 'USSEA' } },
  },
  {
    number: 'TEST-DIRECT',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Direct: Rotterdam → New York, one vessel',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, containers: 1, route: { pol: 'NLRTM', transshipments: [], pod: 'USNYC' } },
  },
  {
    number: 'TEST-TS1',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'One transshipment: Xiamen → Singapore → Rotterdam, two mainline vessels',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, route: { pol: 'CNXMN', transshipments: ['SGSIN'], pod: 'NLRTM' } },
  },
  {
    number: 'TEST-TS2-FEEDER',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Two transshipments with a feeder: Ho Chi Minh City → (feeder vessel) Singapore → Tanger Med → Savannah',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, route: { pol: 'VNSGN', transshipments: ['SGSIN', 'MAPTM'], pod: 'USSAV', feeder: 'VESSEL' } },
  },
  {
    number: 'TEST-BARGE',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Barge feeder: Port Klang → (barge) Singapore → Rotterdam',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, route: { pol: 'MYPKG', transshipments: ['SGSIN'], pod: 'NLRTM', feeder: 'BARGE' } },
  },
  {
    number: 'TEST-RAIL',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Inland rail: Yantian → Los Angeles, then rail to Chicago (arrived_at_inland_destination)',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, route: { pol: 'CNYTN', transshipments: [], pod: 'USLAX', rail: 'USCHI' } },
  },
  {
    number: 'TEST-HOLDS',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Holds at the terminal: customs and freight holds after discharge, released about two days later; the last free day moves once',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, holds: 'customs_and_freight', route: { pol: 'KRPUS', transshipments: [], pod: 'USOAK' } },
  },
  {
    number: 'TEST-DELAY',
    scac: 'TEST',
    numberType: 'bill_of_lading',
    outcome: 'Delay: the vessel leaves late and sails slowly; the ETA at Seattle moves three times before arrival',
    failedReason: null,
    behaviour: { kind: 'journey' },
    shape: { ...FIXED, delay: 'large', route: { pol: 'KRPUS', transshipments: [], pod: 'USSEA' } },
  },
  {
    number: 'MAEU261234567',
    scac: 'MAEU',
    numberType: 'bill_of_lading',
    outcome: 'A B/L number: a generated journey (any well-formed B/L of a sandbox carrier works the same way)',
    failedReason: null,
    behaviour: { kind: 'journey' },
  },
  {
    number: 'EBKG26000001',
    scac: 'MSCU',
    numberType: 'booking_number',
    outcome: 'A booking number: a generated journey',
    failedReason: null,
    behaviour: { kind: 'journey' },
  },
  {
    number: 'CMAU2600020',
    scac: 'CMDU',
    numberType: 'container',
    outcome: 'A container number: a generated journey in which this box travels',
    failedReason: null,
    behaviour: { kind: 'journey' },
  },
];

const byKey = new Map(TEST_NUMBERS.map((t) => [`${t.scac}:${t.number}`, t]));

/** The test number entry for a carrier and a (normalised) number, whatever number type it is asked as. */
export function findTestNumber(scac: string, number: string): TestNumber | undefined {
  return byKey.get(`${scac}:${number}`);
}
