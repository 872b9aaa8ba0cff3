// The tracking harness with every face a user reads mounted on it: the REST API (always there),
// the MCP server and the web app. For tests that hold the faces to one account of a journey.
import { mountWeb } from '../../src/main/web.ts';
import { withMcp } from './mcp.ts';
import { startTrackingHarness, type TrackingHarness } from './tracking.ts';

export function startTrackingHarnessWithFaces(): Promise<TrackingHarness> {
  return startTrackingHarness([], {
    beforeListen: async (app, baseUrl, services) => {
      await withMcp()(app, baseUrl);
      await mountWeb(app, services);
    },
  });
}
