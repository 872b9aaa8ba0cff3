// The sandbox carrier network a tracking benchmark runs against: on loopback, on the benchmark's
// clock, with a DCSA 2.2 connector per line it tracks.
import { ConnectorRegistry } from '../src/carriers/registry.ts';
import type { Clock } from '../src/clock.ts';
import { buildSandboxServer } from '../src/sandbox/index.ts';

/** The lines the benchmarks track: five carriers, so journeys spread over their networks. */
export const BENCH_SCACS = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY'];

export async function startSandboxCarriers(clock: Clock, scacs = BENCH_SCACS) {
  const sandbox = await buildSandboxServer({ clock });
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const registry = new ConnectorRegistry(
    scacs.map((scac) => ({ scac, baseUrl: `${url}/carriers/${scac}`, version: '2.2' as const, terminalBaseUrl: `${url}/terminal` })),
    clock,
  );
  return { sandbox, registry };
}
