// Which carrier is reached where: a connector per SCAC, built from configuration by the factory of
// its protocol (protocols.ts).
import type { Clock } from '../clock.ts';
import { resolveCarrier, type CarrierEndpoint } from './endpoints.ts';
import { PROTOCOLS, protocolOf, type Protocol } from './protocols.ts';
import type { CarrierOutcomeRecorder } from './outcome-recorder.ts';
import type { CarrierConnector } from './types.ts';

export type { CarrierEndpoint } from './endpoints.ts';

export class ConnectorRegistry {
  readonly #connectors = new Map<string, CarrierConnector>();

  /** `outcomes`: where what each carrier request came to is recorded (svc carriers list shows it). */
  constructor(endpoints: CarrierEndpoint[], clock: Clock, protocols: Readonly<Record<string, Protocol>> = PROTOCOLS, outcomes?: CarrierOutcomeRecorder) {
    for (const raw of endpoints) {
      const carrier = resolveCarrier(raw);
      this.#connectors.set(carrier.scac, protocolOf(carrier, protocols).connector(carrier, { clock, outcomes: outcomes?.for(carrier.scac) }));
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
