// Which carrier is reached where: a connector per SCAC, built from configuration.
import type { z } from 'zod';
import type { Clock } from '../clock.ts';
import { carrierEndpointSchema } from '../config/index.ts';
import { DcsaConnector } from './dcsa/index.ts';
import type { CarrierConnector } from './types.ts';

/** A carrier's DCSA endpoint: an entry of SVC_CARRIERS (validated with the configuration) or a sandbox carrier. */
export type CarrierEndpoint = z.input<typeof carrierEndpointSchema>;

export class ConnectorRegistry {
  readonly #connectors = new Map<string, CarrierConnector>();

  constructor(endpoints: CarrierEndpoint[], clock: Clock) {
    for (const raw of endpoints) {
      const e = carrierEndpointSchema.parse(raw);
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

  /** Whether a connector is configured for this SCAC, i.e. whether svc can track the line here. */
  has(scac: string): boolean {
    return this.#connectors.has(scac.toUpperCase());
  }

  get scacs(): string[] {
    return [...this.#connectors.keys()];
  }
}
