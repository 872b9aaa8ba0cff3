// Reads the files in refdata/ and turns them into rows for every reference table.
import { readFile } from 'node:fs/promises';
import { parseLocations } from './locations.ts';
import { railTerminalsFrom } from './rail-terminals.ts';
import { parseShippingLines } from './shipping-lines.ts';
import { parseTerminals } from './terminals.ts';
import type { LocationRow, RailTerminalRow, ShippingLineRow, TerminalRow, VesselRow } from './types.ts';
import { parseVessels } from './vessels.ts';

/** Located from this module rather than the working directory, so any cwd works. */
const REFDATA_DIR = new URL('../../refdata/', import.meta.url);

export const SOURCE_FILES = [
  'ports.csv',
  'carriers.csv',
  'carrier_tracking_support.csv',
  'terminals.csv',
  'terminals_smdg.csv',
  'vessels.csv',
] as const;

export type SourceFile = (typeof SOURCE_FILES)[number];
export type Sources = Record<SourceFile, Buffer>;

export interface ReferenceData {
  locations: LocationRow[];
  shippingLines: ShippingLineRow[];
  terminals: TerminalRow[];
  railTerminals: RailTerminalRow[];
  vessels: VesselRow[];
}

export async function readSources(): Promise<Sources> {
  const contents = await Promise.all(SOURCE_FILES.map((f) => readFile(new URL(f, REFDATA_DIR))));
  return Object.fromEntries(SOURCE_FILES.map((f, i) => [f, contents[i]])) as Sources;
}

export function parseReferenceData(sources: Sources): ReferenceData {
  const text = (f: SourceFile) => sources[f].toString('utf8');
  const locations = parseLocations(text('ports.csv'));
  return {
    locations,
    shippingLines: parseShippingLines(text('carriers.csv'), text('carrier_tracking_support.csv')),
    terminals: parseTerminals(text('terminals.csv'), text('terminals_smdg.csv'), locations),
    railTerminals: railTerminalsFrom(locations),
    vessels: parseVessels(text('vessels.csv')),
  };
}
