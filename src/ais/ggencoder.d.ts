// ggencoder ships no types: the part of its API svc uses, one declaration for both sides (svc's
// AIS ingester decodes; the sandbox's AIS feed and the tests encode). Decoded fields are present
// only for the message types that carry them.
declare module 'ggencoder' {
  /** Parts of a multi-sentence message seen so far; ggencoder fills it in. */
  export type AisSession = Record<string, unknown>;
  export type AisDecodeSession = AisSession;

  export class AisDecode {
    constructor(sentence: string, session?: AisSession);
    /** False for a bad checksum, a malformed sentence, an unsupported type or an unavailable position. */
    valid: boolean;
    /** Why the sentence was refused; '' when it was accepted (also for a fragment awaiting the rest). */
    error: string;
    aistype?: number;
    /** Nine digits, zero-padded. */
    mmsi?: string;
    immsi?: number;
    channel?: string;
    /** Payload length in characters (of the whole message, once reassembled). */
    msglen?: number;
    lat?: number;
    lon?: number;
    /** Knots; 102.3 means not available. */
    sog?: number;
    /** Degrees; 360 means not available. */
    cog?: number;
    /** Degrees; 511 means not available. */
    hdg?: number;
    /** UTC second of the report; 60–63 mean not available. */
    utc?: number;
    navstatus?: number;
    imo?: number;
    shipname?: string;
    callsign?: string;
    cargo?: number;
    destination?: string;
    /** Type 24: 0 (A, the name) or 1 (B, type and call sign). */
    part?: number;
    /** Type 5: dimensions from the antenna (metres), ETA and draught (metres). */
    dimA?: number;
    dimB?: number;
    dimC?: number;
    dimD?: number;
    etaMo?: number;
    etaDay?: number;
    etaHr?: number;
    etaMin?: number;
    draught?: number;
    validateChecksum(sentence: string): boolean;
  }

  export interface AisEncodeInput {
    aistype: number;
    mmsi: number;
    repeat?: number;
    navstatus?: number;
    lat?: number;
    lon?: number;
    sog?: number;
    cog?: number;
    hdg?: number | null;
    rot?: number;
    smi?: number;
    accuracy?: number;
    imo?: number;
    callsign?: string;
    shipname?: string;
    cargo?: number;
    destination?: string;
    dimA?: number;
    dimB?: number;
    dimC?: number;
    dimD?: number;
    etaMo?: number;
    etaDay?: number;
    etaHr?: number;
    etaMin?: number;
    draught?: number;
    part?: number;
    own?: boolean;
  }

  export class AisEncode {
    constructor(message: AisEncodeInput);
    valid: boolean;
    /** One sentence, whatever its length (real transmitters split long messages). */
    nmea: string;
  }

  const ggencoder: { AisDecode: typeof AisDecode; AisEncode: typeof AisEncode };
  export default ggencoder;
}
