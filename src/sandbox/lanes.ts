// The trade lanes journeys are drawn from. Hand-picked real ports, so that every journey looks
// like one a carrier actually sells: which ports load, which hubs tranship, where North American
// rail goes inland. Coordinates, zones and terminals come from refdata via the world.

export interface Lane {
  name: string;
  /** Ports of loading. */
  pols: readonly string[];
  /** Ports of discharge. */
  pods: readonly string[];
  /** Transshipment hubs this lane's services call at. */
  hubs: readonly string[];
}

export const LANES: readonly Lane[] = [
  {
    name: 'transpacific',
    pols: ['CNSHA', 'CNNGB', 'CNYTN', 'CNXMN', 'KRPUS', 'TWKHH', 'HKHKG', 'VNSGN', 'JPTYO'],
    pods: ['USLAX', 'USLGB', 'USOAK', 'USSEA', 'CAVAN', 'CAPRR'],
    hubs: ['KRPUS', 'HKHKG', 'TWKHH', 'CNSHA'],
  },
  {
    name: 'asia-us-east-coast',
    pols: ['CNSHA', 'CNNGB', 'CNYTN', 'VNSGN', 'THLCH', 'SGSIN', 'MYPKG'],
    pods: ['USNYC', 'USSAV', 'USHOU'],
    hubs: ['PAMIT', 'SGSIN', 'LKCMB', 'MAPTM', 'KRPUS'],
  },
  {
    name: 'asia-north-europe',
    pols: ['CNSHA', 'CNNGB', 'CNYTN', 'CNXMN', 'KRPUS', 'VNSGN', 'THLCH', 'SGSIN', 'MYPKG', 'INNSA'],
    pods: ['NLRTM', 'DEHAM', 'BEANR', 'GBFXT', 'FRLEH'],
    hubs: ['SGSIN', 'MYPKG', 'LKCMB', 'AEJEA', 'MAPTM', 'ESALG'],
  },
  {
    name: 'asia-mediterranean',
    pols: ['CNSHA', 'CNNGB', 'CNYTN', 'SGSIN', 'INNSA'],
    pods: ['ITGOA', 'ESALG'],
    hubs: ['SGSIN', 'LKCMB', 'AEJEA', 'EGPSD'],
  },
  {
    name: 'transatlantic',
    pols: ['NLRTM', 'DEHAM', 'BEANR', 'GBFXT', 'FRLEH'],
    pods: ['USNYC', 'USSAV', 'USHOU'],
    hubs: ['ESALG', 'MAPTM'],
  },
];

/** A transshipment may lengthen the sea distance by at most this factor over going direct. */
export const MAX_HUB_DETOUR = 1.2;

/**
 * The hubs a first hop may go to when a journey is meant to start with a feeder (two
 * transshipments), and the longest hop a barge makes. Which legs are feeders is the feeder rule's.
 */
export const MAX_FEEDER_NM = 1300;
export const MAX_BARGE_NM = 300;

/** Where import boxes go inland by rail from each North American port. */
export const RAIL_DESTINATIONS: Readonly<Record<string, readonly string[]>> = {
  USLAX: ['USCHI', 'USDAL', 'USMEM'],
  USLGB: ['USCHI', 'USDAL', 'USMEM'],
  USOAK: ['USCHI', 'USSLC'],
  USSEA: ['USCHI', 'USMES'],
  USSAV: ['USATL', 'USCLT'],
  USNYC: ['USCMH', 'USCHI'],
  USHOU: ['USDAL', 'USSAT'],
  CAPRR: ['USCHI', 'CATOR'],
  CAVAN: ['CATOR', 'CACAL', 'USCHI'],
};

/** Inland places export boxes start from before reaching their port of loading. */
export const INLAND_ORIGINS: Readonly<Record<string, readonly string[]>> = {
  NLRTM: ['DEDUI', 'CHBSL'],
  CNSHA: ['CNSZH'],
};
