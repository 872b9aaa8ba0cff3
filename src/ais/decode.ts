// One feed's AIS sentences → position and static reports, through ggencoder (checksum, 6-bit
// payload, fields). Every refusal has a reason, which the ingester counts; none throws.
import ggencoder, { type AisSession } from 'ggencoder';
import type { AisIdentity } from '../store/vessel-positions.ts';
import { sentenceOf } from './nmea.ts';

const { AisDecode } = ggencoder;
const checksumOk = (sentence: string) => AisDecode.prototype.validateChecksum(sentence);

export interface AisPositionReport {
  kind: 'position';
  mmsi: number;
  latitude: number;
  longitude: number;
  speedKnots: number | null;
  courseDegrees: number | null;
  headingDegrees: number | null;
  /** The UTC second the report was made in, when the transmitter gave it. */
  second: number | null;
}

/** A static report (type 5 or 24): the vessel's identity as the store records it, without the time. */
export type AisStaticReport = { kind: 'static' } & Omit<AisIdentity, 'at'>;

/** Why a sentence gave no report. */
export type AisSkipReason =
  /** The checksum does not match. */
  | 'checksum'
  /** Not an AIVDM/AIVDO sentence, wrong field count, bad payload characters, or an undecodable message. */
  | 'malformed'
  /** A fragment of a multi-sentence message whose other parts did not come (in order). */
  | 'fragment'
  /** A message type svc does not use (base stations, aids to navigation, binary messages…). */
  | 'unsupported'
  /** A position report saying the position is not available. */
  | 'unavailable';

export type AisDecoded = AisPositionReport | AisStaticReport | { kind: 'partial' } | { kind: 'skipped'; reason: AisSkipReason };

const PARTIAL = { kind: 'partial' } as const;
const skipped = (reason: AisSkipReason) => ({ kind: 'skipped', reason }) as const;

const POSITION_TYPES = new Set([1, 2, 3, 18, 19]);

/**
 * Multi-sentence messages in progress on one feed, at most: NMEA's sequential message id is one
 * digit, so a feed that keeps more apart is not sending AIS; the oldest is dropped (a fragment).
 */
export const MAX_MESSAGES_IN_PROGRESS = 32;

/**
 * Shortest payload, in 6-bit characters, that holds the fields svc needs of each type (up to the
 * time stamp of a position report, up to the ship type of a type 5; text fields cut short are
 * read short). ggencoder reads bits past the end of a payload as zeros (a cut-off position
 * report would put the vessel at 0°N 0°E), so shorter messages are refused here.
 */
const MIN_PAYLOAD: Record<number, number> = { 1: 24, 2: 24, 3: 24, 18: 24, 19: 51, 5: 40, 24: 22 };

/** "Not available" values (102.3 kn, 360°, 511°, seconds 60–63) become null. */
const speed = (sog: number | undefined) => (sog === undefined || sog >= 102.3 ? null : sog);
const course = (cog: number | undefined) => (cog === undefined || cog >= 360 ? null : cog);
const heading = (hdg: number | undefined) => (hdg === undefined || hdg >= 360 ? null : hdg);
const second = (utc: number | undefined) => (utc === undefined || utc > 59 ? null : utc);
const text = (value: string | undefined) => (value ? value.trim() || null : null);

/**
 * Decodes the sentences of one feed, in arrival order. Multi-sentence messages (type 5 comes as
 * two) are put together with ggencoder's session object, one per sequential message id, as
 * fragments of several messages may interleave on a feed. A session is started afresh by each
 * first fragment and dropped once complete: ggencoder keeps old parts in a reused session, and
 * would otherwise glue a stray last fragment to an earlier message's first.
 */
export class AisSentenceDecoder {
  readonly #sessions = new Map<string, AisSession>();

  /**
   * `skipped.fragment` also counts messages whose first fragment came but whose last never did
   * (the id was reused by a later message, or the connection dropped).
   */
  constructor(private readonly skipped: Record<AisSkipReason, number> = { checksum: 0, malformed: 0, fragment: 0, unsupported: 0, unavailable: 0 }) {}

  decode(line: string): AisDecoded {
    const sentence = sentenceOf(line);
    if (sentence === null) return skipped('malformed');
    // "!AIVDM,2,1,3,…": fragment count and number are one digit each (1–9).
    const count = sentence.charCodeAt(7) - 48;
    const multi = count > 1 && count <= 9 && sentence.charCodeAt(8) === 44 /* , */;
    let session: AisSession | undefined;
    let last = true;
    if (multi) {
      const number = sentence.charCodeAt(9) - 48;
      const comma = sentence.indexOf(',', 11);
      const key = comma < 0 ? '' : sentence.slice(11, comma);
      // Without a sequential message id ggencoder can never match the fragments: refuse early.
      if (number < 1 || number > count || key === '') return skipped(number === 1 ? 'malformed' : 'fragment');
      // A corrupted fragment must not displace a message in progress: its checksum first.
      if (!checksumOk(sentence)) return skipped('checksum');
      if (number === 1) {
        if (this.#sessions.delete(key)) this.skipped.fragment++;
        this.#sessions.set(key, (session = {}));
        if (this.#sessions.size > MAX_MESSAGES_IN_PROGRESS) {
          this.#sessions.delete(this.#sessions.keys().next().value!);
          this.skipped.fragment++;
        }
      } else session = this.#sessions.get(key) ?? {};
      last = number === count;
      if (last) this.#sessions.delete(key);
    }
    let decoded: InstanceType<typeof AisDecode>;
    try {
      decoded = new AisDecode(sentence, session);
    } catch {
      // ggencoder throws (a string) for a fragment count it cannot read as one digit ("!AIVDM,12,…").
      return skipped('malformed');
    }
    if (decoded.error) {
      if (decoded.error.includes('checksum')) return skipped('checksum');
      return skipped(decoded.error.includes('ession') ? 'fragment' : 'malformed');
    }
    if (!last) return PARTIAL;
    return report(decoded);
  }

  /** Forgets fragments in progress (the connection they came on is gone). */
  reset(): void {
    this.skipped.fragment += this.#sessions.size;
    this.#sessions.clear();
  }
}

/** The reports `lines` give, in order; each line that gives none is counted in `skipped` by its reason. */
export function reportsOf(decoder: AisSentenceDecoder, lines: readonly string[], skipped: Record<AisSkipReason, number>): (AisPositionReport | AisStaticReport)[] {
  const reports: (AisPositionReport | AisStaticReport)[] = [];
  for (const line of lines) {
    const decoded = decoder.decode(line);
    if (decoded.kind === 'position' || decoded.kind === 'static') reports.push(decoded);
    else if (decoded.kind === 'skipped') skipped[decoded.reason]++;
  }
  return reports;
}

function report(d: InstanceType<typeof AisDecode>): AisDecoded {
  const type = d.aistype;
  // Undefined type: payload characters outside the 6-bit alphabet.
  if (type === undefined || (d.msglen ?? 0) < (MIN_PAYLOAD[type] ?? 0)) return skipped('malformed');
  if (POSITION_TYPES.has(type)) {
    if (!d.valid || d.lat === undefined || d.lon === undefined || d.lat < -90 || d.lon < -180) return skipped('unavailable');
    return {
      kind: 'position',
      mmsi: d.immsi!,
      latitude: d.lat,
      longitude: d.lon,
      speedKnots: speed(d.sog),
      courseDegrees: course(d.cog),
      headingDegrees: heading(d.hdg),
      second: second(d.utc),
    };
  }
  if (type === 5 || type === 24) {
    if (!d.valid) return skipped('malformed');
    return {
      kind: 'static',
      mmsi: d.immsi!,
      imo: type === 5 && d.imo && d.imo >= 1_000_000 && d.imo <= 9_999_999 ? String(d.imo) : null,
      name: text(d.shipname),
      callSign: text(d.callsign),
      shipType: d.cargo ? d.cargo : null,
      destination: text(d.destination),
    };
  }
  return skipped('unsupported');
}
