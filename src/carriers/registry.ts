// Which carrier is reached where: a connector per SCAC, built from configuration.
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { DcsaConnector } from './dcsa/index.ts';
import type { CarrierConnector } from './types.ts';

const endpoint = z.object({
  scac: z.string().length(4).toUpperCase(),
  baseUrl: z.url(),
  version: z.enum(['2.2', '3.0']).default('2.2'),
  apiKey: z.string().optional(),
  apiKeyHeader: z.string().optional(),
  terminalBaseUrl: z.url().optional(),
  timeoutMs: z.number().int().min(100).max(120_000).default(15_000),
});

export type CarrierEndpoint = z.input<typeof endpoint>;

/** Parses SVC_CARRIERS; throws a message naming the variable when it is not a valid list. */
export function parseCarrierEndpoints(json: string): CarrierEndpoint[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('SVC_CARRIERS: not valid JSON');
  }
  const parsed = z.array(endpoint).safeParse(value);
  if (!parsed.success) throw new Error(`SVC_CARRIERS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export class ConnectorRegistry {
  readonly #connectors = new Map<string, CarrierConnector>();

  constructor(endpoints: CarrierEndpoint[], clock: Clock) {
    for (const raw of endpoints) {
      const e = endpoint.parse(raw);
      this.#connectors.set(
        e.scac,
        new DcsaConnector(
          { baseUrl: e.baseUrl, version: e.version, apiKey: e.apiKey, apiKeyHeader: e.apiKeyHeader, timeoutMs: e.timeoutMs },
          { terminalBaseUrl: e.terminalBaseUrl, clock },
        ),
      );
    }
  }

  get(scac: string): CarrierConnector | undefined {
    return this.#connectors.get(scac.toUpperCase());
  }

  get scacs(): string[] {
    return [...this.#connectors.keys()];
  }
}
