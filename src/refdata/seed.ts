// Loads refdata/ into the reference tables. Each dataset is reloaded only when the
// files it is built from have changed since the last load, so a normal start costs a
// few hash lookups; a load replaces the whole dataset in one transaction.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { withTransaction } from '../store/db.ts';
import { loadedContentHash, lockReferenceData, replaceReferenceRows, type ReferenceTable } from '../store/reference-load.ts';
import { parseReferenceData, readSources, type ReferenceData, type SourceFile, type Sources } from './parse.ts';

// Part of every content hash: bump it when the parsers change what they make of
// unchanged files, so existing installs reload.
const FORMAT_VERSION = 1;

/** `name` is also the table's. */
interface Dataset extends ReferenceTable {
  files: SourceFile[];
  rows: (data: ReferenceData) => object[];
}

// In load order: terminals and rail terminals refer to locations.
const DATASETS: Dataset[] = [
  {
    name: 'locations',
    files: ['ports.csv'],
    columns: [
      ['id', 'uuid'], ['locode', 'text'], ['name', 'text'], ['country_code', 'text'], ['state_abbr', 'text'],
      ['city', 'text'], ['latitude', 'double precision'], ['longitude', 'double precision'], ['time_zone', 'text'],
      ['is_seaport', 'boolean'], ['is_rail', 'boolean'], ['is_icd', 'boolean'], ['is_inland_hub', 'boolean'],
      ['alias_of', 'text'],
    ],
    rows: (d) => d.locations,
  },
  {
    name: 'shipping_lines',
    files: ['carriers.csv', 'carrier_tracking_support.csv'],
    columns: [
      ['id', 'uuid'], ['scac', 'text'], ['name', 'text'], ['short_name', 'text'], ['alternative_scacs', 'text[]'],
      ['bill_of_lading_tracking_support', 'boolean'], ['booking_number_tracking_support', 'boolean'],
      ['container_number_tracking_support', 'boolean'], ['carrier_group', 'text'], ['smdg_code', 'text'],
      ['bl_prefixes', 'text[]'], ['container_prefixes', 'text[]'],
    ],
    rows: (d) => d.shippingLines,
  },
  {
    name: 'terminals',
    // ports.csv decides which terminals have a known port.
    files: ['terminals.csv', 'terminals_smdg.csv', 'ports.csv'],
    columns: [
      ['id', 'uuid'], ['name', 'text'], ['nickname', 'text'], ['firms_code', 'text'], ['smdg_code', 'text'],
      ['city', 'text'], ['state_abbr', 'text'], ['country', 'text'], ['port_id', 'uuid'],
      ['latitude', 'double precision'], ['longitude', 'double precision'],
    ],
    rows: (d) => d.terminals,
  },
  {
    name: 'rail_terminals',
    files: ['ports.csv'],
    columns: [
      ['id', 'uuid'], ['name', 'text'], ['nickname', 'text'], ['firms_code', 'text'], ['port_id', 'uuid'],
      ['metro_area_id', 'uuid'],
    ],
    rows: (d) => d.railTerminals,
  },
  {
    name: 'vessels',
    files: ['vessels.csv'],
    columns: [['id', 'uuid'], ['name', 'text'], ['imo', 'text'], ['mmsi', 'text'], ['operator', 'text']],
    rows: (d) => d.vessels,
  },
];

function contentHash(dataset: Dataset, sources: Sources): string {
  const hash = createHash('sha256').update(`svc-refdata-format:${FORMAT_VERSION}\n`);
  for (const file of dataset.files) {
    hash.update(`${file}:${sources[file].length}\n`).update(sources[file]);
  }
  return hash.digest('hex');
}

/**
 * Brings the reference tables in line with refdata/. Safe to call on every start and
 * from several processes at once: the advisory lock makes a second process wait, then
 * see the hash the first one recorded, and skip.
 */
export async function seedReferenceData(db: pg.Pool): Promise<{ loaded: string[]; skipped: string[] }> {
  const sources = await readSources();
  let data: ReferenceData | undefined; // parsed only if some dataset needs loading
  const loaded: string[] = [];
  const skipped: string[] = [];
  for (const dataset of DATASETS) {
    const hash = contentHash(dataset, sources);
    const didLoad = await withTransaction(db, async (tx) => {
      await lockReferenceData(tx);
      if ((await loadedContentHash(tx, dataset.name)) === hash) return false;
      data ??= parseReferenceData(sources);
      await replaceReferenceRows(tx, dataset, dataset.rows(data), hash);
      return true;
    });
    (didLoad ? loaded : skipped).push(dataset.name);
  }
  return { loaded, skipped };
}
