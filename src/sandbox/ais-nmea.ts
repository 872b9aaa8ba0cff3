// AIS messages as NMEA 0183 !AIVDM sentences. ggencoder packs the bits; this module fixes what
// it leaves out and frames the result the way shore receivers do: the UTC second of the report
// (ggencoder always writes 60, "not available"), channels A and B, and messages longer than one
// sentence (type 5, 71 characters) split into fragments of at most 60 characters with a
// sequential message id, the fill bits on the last fragment only, and a checksum per fragment.
import gg from 'ggencoder';
import type { AisIdentity } from './ais-identity.ts';
import type { Prng } from './prng.ts';

export interface PositionReport {
  mmsi: number;
  /** 0 under way using engine, 5 moored. */
  navStatus: number;
  speedKnots: number;
  /** Null: not available (sent as 360). */
  courseDeg: number | null;
  /** Null: not available (sent as 511). */
  headingDeg: number | null;
  lon: number;
  lat: number;
  /** UTC second of the position, 0–59. */
  second: number;
}

export interface StaticReport {
  identity: AisIdentity;
  /** Free text; the sandbox sends the UN/LOCODE of the next port. */
  destination: string;
  eta: Date | null;
}

/** The 6-bit payload of one message and the fill bits that pad its last character. */
export interface Payload {
  chars: string;
  fill: number;
}

/** Characters per sentence receivers use when they split a long message. */
const FRAGMENT_CHARS = 60;

/** Bits 137–142 of types 1–3: the UTC second the position was taken. */
const TIMESTAMP_BIT = 137;

function sixBits(char: string): number {
  const v = char.charCodeAt(0) - 48;
  return v > 40 ? v - 8 : v;
}

function armour(v: number): string {
  return String.fromCharCode(v < 40 ? v + 48 : v + 56);
}

/** Payload characters with `len` bits from bit `start` replaced by `value`. */
function withBits(chars: string, start: number, len: number, value: number): string {
  const values = [...chars].map(sixBits);
  for (let i = 0; i < len; i++) {
    const bit = start + i;
    const mask = 1 << (5 - (bit % 6));
    const on = (value >> (len - 1 - i)) & 1;
    values[Math.floor(bit / 6)] = on ? values[Math.floor(bit / 6)] | mask : values[Math.floor(bit / 6)] & ~mask;
  }
  return values.map(armour).join('');
}

function payloadOf(encoded: { valid: boolean; nmea: string }): Payload {
  if (!encoded.valid) throw new Error('ggencoder refused an AIS message');
  const fields = encoded.nmea.split('*')[0].split(',');
  return { chars: fields[5], fill: Number(fields[6]) };
}

/** Message type 1, a class A position report. */
export function positionPayload(r: PositionReport): Payload {
  const encoded = new gg.AisEncode({
    aistype: 1,
    repeat: 0,
    mmsi: r.mmsi,
    navstatus: r.navStatus,
    rot: -128, // no rate-of-turn indicator: most ships' AIS has none connected
    sog: r.speedKnots,
    lon: r.lon,
    lat: r.lat,
    cog: r.courseDeg ?? 360,
    hdg: r.headingDeg ?? 511,
  });
  const payload = payloadOf(encoded);
  return { ...payload, chars: withBits(payload.chars, TIMESTAMP_BIT, 6, r.second) };
}

/** Message type 5, static and voyage related data. */
export function staticPayload({ identity, destination, eta }: StaticReport): Payload {
  // The GPS antenna sits on the bridge, about a quarter of the length from the stern.
  const toBow = Math.round(identity.lengthM * 0.75);
  const toPort = Math.floor(identity.beamM / 2);
  return payloadOf(
    new gg.AisEncode({
      aistype: 5,
      repeat: 0,
      mmsi: identity.mmsi,
      imo: Number(identity.imo),
      callsign: identity.callSign,
      shipname: identity.name,
      cargo: identity.shipType,
      dimA: toBow,
      dimB: identity.lengthM - toBow,
      dimC: toPort,
      dimD: identity.beamM - toPort,
      // No ETA is month 0, day 0, hour 24, minute 60.
      etaMo: eta ? eta.getUTCMonth() + 1 : 0,
      etaDay: eta ? eta.getUTCDate() : 0,
      etaHr: eta ? eta.getUTCHours() : 24,
      etaMin: eta ? eta.getUTCMinutes() : 60,
      draught: identity.draughtM,
      destination,
    }),
  );
}

/** The two hex digits after `*`: XOR of every character between `!` and `*`. */
export function nmeaChecksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, '0');
}

/**
 * The sentences carrying one message: a single one when it fits, else fragments of 60 characters
 * sharing `sequenceId` (0–9), the fill bits on the last.
 */
export function sentencesOf(payload: Payload, channel: 'A' | 'B', sequenceId: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < payload.chars.length; i += FRAGMENT_CHARS) parts.push(payload.chars.slice(i, i + FRAGMENT_CHARS));
  const id = parts.length > 1 ? String(sequenceId) : '';
  return parts.map((part, i) => {
    const body = `AIVDM,${parts.length},${i + 1},${id},${channel},${part},${i === parts.length - 1 ? payload.fill : 0}`;
    return `!${body}*${nmeaChecksum(body)}`;
  });
}

/** The sentence with one payload character garbled in transit; the checksum no longer matches. */
export function garble(sentence: string, rng: Prng): string {
  const fields = sentence.split(',');
  const chars = [...fields[5]];
  const at = rng.int(0, chars.length - 1);
  // Adding 1–63 modulo 64 always gives another character, so the XOR checksum always breaks.
  chars[at] = armour((sixBits(chars[at]) + rng.int(1, 63)) % 64);
  fields[5] = chars.join('');
  return fields.join(',');
}
