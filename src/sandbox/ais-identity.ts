// Who each sandbox ship is on AIS. vessels.csv gives IMO numbers but no MMSI, so each ship gets a
// plausible one: the Maritime Identification Digits of its operator's country (the flag most of
// that operator's ships could fly) followed by the last six digits of its IMO number. The rest of
// a static report (call sign, ship type, size, draught) is drawn from the IMO number, so it is the
// same on every run and every machine.
import type { VesselRow } from '../refdata/types.ts';
import { Prng } from './prng.ts';

export interface AisIdentity {
  imo: string;
  name: string;
  mmsi: number;
  callSign: string;
  /** ITU ship and cargo type, 70–79: cargo ships. */
  shipType: number;
  lengthM: number;
  beamM: number;
  draughtM: number;
}

/** The AIS identity of every reference vessel, by IMO number. */
export type AisFleet = ReadonlyMap<string, AisIdentity>;

interface Flag {
  mid: number;
  /** ITU call sign prefix of the country. */
  callPrefix: string;
}

// First match wins: "chartered (Maersk service in 2024)" is a chartered ship, not a Danish one.
const OPERATOR_FLAGS: readonly [RegExp, Flag][] = [
  [/chartered/i, { mid: 563, callPrefix: '9V' }], // Singapore
  [/maersk/i, { mid: 219, callPrefix: 'OZ' }], // Denmark
  [/\bmsc\b/i, { mid: 269, callPrefix: 'HB' }], // Switzerland
  [/evergreen|yang ming/i, { mid: 416, callPrefix: 'BV' }], // Taiwan
  [/\bhmm\b/i, { mid: 440, callPrefix: 'D7' }], // Korea
  [/cma cgm/i, { mid: 228, callPrefix: 'FM' }], // France
  [/oocl/i, { mid: 477, callPrefix: 'VR' }], // Hong Kong
  [/cosco/i, { mid: 413, callPrefix: 'BR' }], // China
  [/\bone\b|\bmol\b|\bnyk\b/i, { mid: 431, callPrefix: 'JD' }], // Japan
  [/hapag/i, { mid: 211, callPrefix: 'DD' }], // Germany
  [/\bzim\b/i, { mid: 428, callPrefix: '4X' }], // Israel
];
/** Tonnage providers' ships (Seaspan, feeders) mostly fly an open registry: Liberia. */
const OPEN_REGISTRY: Flag = { mid: 636, callPrefix: 'D5' };

const CALL_SIGN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function flagOf(operator: string | null): Flag {
  return OPERATOR_FLAGS.find(([pattern]) => operator !== null && pattern.test(operator))?.[1] ?? OPEN_REGISTRY;
}

export function aisIdentity(vessel: Pick<VesselRow, 'imo' | 'name' | 'operator'>, feeder: boolean): AisIdentity {
  const flag = flagOf(vessel.operator);
  const rng = new Prng('sandbox-ais-identity/1', vessel.imo);
  const suffix = Array.from({ length: 4 }, () => rng.pick([...CALL_SIGN_CHARS])).join('');
  const lengthM = feeder ? rng.int(140, 200) : rng.int(300, 400);
  return {
    imo: vessel.imo,
    name: vessel.name,
    mmsi: flag.mid * 1_000_000 + (Number(vessel.imo) % 1_000_000),
    callSign: flag.callPrefix + suffix,
    shipType: rng.pick([70, 70, 71, 79]),
    lengthM,
    beamM: feeder ? rng.int(22, 30) : rng.int(43, 61),
    draughtM: Math.round((feeder ? rng.between(8, 10.5) : rng.between(12, 15.5)) * 10) / 10,
  };
}

/** Identities of the world's ships; feeders are the world's small ships. */
export function aisFleet(world: { mainlineVessels: readonly VesselRow[]; feederVessels: readonly VesselRow[]; charterVessels?: readonly VesselRow[] }): AisFleet {
  const fleet = new Map<string, AisIdentity>();
  for (const v of [...world.mainlineVessels, ...(world.charterVessels ?? [])]) fleet.set(v.imo, aisIdentity(v, false));
  for (const v of world.feederVessels) fleet.set(v.imo, aisIdentity(v, true));
  return fleet;
}
