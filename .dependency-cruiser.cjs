// Architecture rules for src/, checked by `npm test` (test/architecture.test.ts runs depcruise).
// Type-only imports count: a cycle or a forbidden dependency through types is one all the same.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other in one direction only.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain/ imports only src/domain/ (and npm packages): no store, HTTP, carriers or services.',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'geo-is-pure',
      severity: 'error',
      comment: 'Sea routing (src/geo/) serves svc, the sandbox and the route map: it imports only itself.',
      from: { path: '^src/geo/' },
      to: { path: '^src/', pathNot: '^src/geo/' },
    },
    {
      name: 'sandbox-is-a-separate-program',
      severity: 'error',
      comment: 'The sandbox reaches svc over DCSA HTTP only: it shares pure code, never svc services, store, faces, roles or its DCSA client, even indirectly.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(services|store|http|jsonapi|read-model|webhooks|main|metrics|config|carriers/dcsa)/|^src/refdata/seed[.]ts$', reachable: true },
    },
    {
      name: 'store-below-presentation',
      severity: 'error',
      comment: 'src/store/ knows rows, not JSON:API documents or HTTP.',
      from: { path: '^src/store/' },
      to: { path: '^src/(http|jsonapi)/' },
    },
    {
      name: 'http-on-top',
      severity: 'error',
      comment: 'Nothing but the roles (src/main/) imports the HTTP face: every other part serves every face (MCP and the web app to come).',
      from: { path: '^src/', pathNot: '^src/(http|main)/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'services-raise-domain-errors',
      severity: 'error',
      comment: 'Services decide and raise domain errors; only src/http/ turns them into JSON:API.',
      from: { path: '^src/services/' },
      to: { path: '^src/(http|jsonapi)/' },
    },
    {
      name: 'mcp-is-a-rest-client',
      severity: 'error',
      comment: 'The MCP server reaches svc through the REST API (the SDK), as any client would: it shares only the pure domain, never services, store or HTTP.',
      from: { path: '^src/mcp/' },
      to: { path: '^src/', pathNot: '^src/(mcp|domain)/' },
    },
    {
      name: 'client-cli-is-a-rest-client',
      severity: 'error',
      comment: 'The client commands (svc track, watch, list, show) reach svc through the REST API (the SDK), as any client would: besides their own folder they share only the pure domain, never services, store, config or HTTP.',
      from: { path: '^src/client-cli/' },
      to: { path: '^(src|test|scripts|bench|bin)/', pathNot: '^src/(client-cli|domain)/' },
    },
    {
      name: 'web-is-a-face-over-services',
      severity: 'error',
      comment: 'The web app (src/web/) is a face over the services, as the REST API is: no SQL of its own (only the Db type and the outage test of the store), no JSON:API, HTTP, MCP or client-command code.',
      from: { path: '^src/web/' },
      to: { path: '^src/((http|jsonapi|mcp|client-cli|carriers|sandbox|main)/|store/(?!(db|database-unavailable)[.]ts$))' },
    },
    {
      name: 'sdk-stands-alone',
      severity: 'error',
      comment: 'sdk/ is a package of its own for svc users: it imports nothing of svc but its generated types.',
      from: { path: '^sdk/' },
      to: { path: '^(src|test|scripts|bench|bin)/' },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'Every import resolves: one that does not would hide its module from the rules above. Browser modules (src/web/assets/) import URLs that svc serves, not files.',
      from: { path: '^(src|sdk)/', pathNot: '^src/web/assets/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Resolve packages as Node does for an ES module (package.json "exports", import condition).
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'], mainFields: ['module', 'main'] },
  },
};
