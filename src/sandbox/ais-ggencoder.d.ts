// Types for the parts of ggencoder (plain CommonJS, no types of its own) that the sandbox AIS feed
// and its tests use: the AIVDM encoder and decoder.
declare module 'ggencoder' {
  /** The fields the encoder reads for message types 1–3 (position) and 5 (static and voyage data). */
  export interface AisEncodeInput {
    aistype: number;
    repeat?: number;
    mmsi: number;
    navstatus?: number;
    rot?: number;
    sog?: number;
    lon?: number;
    lat?: number;
    cog?: number;
    hdg?: number;
    imo?: number;
    callsign?: string;
    shipname?: string;
    cargo?: number;
    dimA?: number;
    dimB?: number;
    dimC?: number;
    dimD?: number;
    etaMo?: number;
    etaDay?: number;
    etaHr?: number;
    etaMin?: number;
    draught?: number;
    destination?: string;
  }

  export class AisEncode {
    constructor(input: AisEncodeInput);
    valid: boolean;
    /** One `!AIVDM,1,1,,A,<payload>,<fill>*hh` sentence, whatever the payload's length. */
    nmea: string;
  }

  /** Multipart state: pass the same object for every fragment of a message. */
  export type AisDecodeSession = Record<string, unknown>;

  export class AisDecode {
    constructor(sentence: string, session?: AisDecodeSession);
    valid: boolean;
    error: string;
    aistype: number;
    mmsi: string;
    channel: string;
    navstatus: number;
    lon: number;
    lat: number;
    sog: number;
    cog: number;
    hdg: number;
    utc: number;
    imo: number;
    callsign: string;
    shipname: string;
    cargo: number;
    dimA: number;
    dimB: number;
    dimC: number;
    dimD: number;
    etaMo: number;
    etaDay: number;
    etaHr: number;
    etaMin: number;
    draught: number;
    destination: string;
  }

  const ggencoder: { AisEncode: typeof AisEncode; AisDecode: typeof AisDecode };
  export default ggencoder;
}
