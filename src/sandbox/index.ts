// The sandbox carrier network: what the CLI and other modules use. See docs/sandbox.md.
export { buildSandboxServer, startSandbox, type SandboxApp, type SandboxControls, type SandboxOptions, type StartSandboxOptions } from './server.ts';
export { ScaledClock } from './scaled-clock.ts';
export { DEFAULT_AIS_PUSH_INTERVAL_MS, startSandboxAis, type SandboxAis, type SandboxAisOptions } from './ais-server.ts';
export { planJourney } from './planner.ts';
export { NO_DIRT, REALISTIC_DIRT, type DirtRates } from './dirt.ts';
export { loadSandboxWorld, SANDBOX_SCACS, type SandboxWorld } from './world.ts';
export { TEST_NUMBERS, findTestNumber, type TestNumber } from './test-numbers.ts';
export type { Journey, JourneyEvent } from './journey.ts';
