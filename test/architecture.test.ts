// The architecture rules of .dependency-cruiser.cjs hold for src/: no import cycles, a pure
// domain, a store below JSON:API and HTTP, services that speak in domain errors rather than
// JSON:API, nothing under the HTTP face importing it, pure sea routing, and a sandbox that shares
// only pure code with svc.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = path.join(root, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** depcruise's verdict on `dir`/src and `dir`/sdk, run from `dir` (it exits non-zero when rules are broken). */
async function cruise(dir: string): Promise<{ violations: Violation[]; totalCruised: number }> {
  const run = promisify(execFile)(process.execPath, [depcruise, 'src', 'sdk', '--config', config, '--output-type', 'json'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  const { stdout } = await run.catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const { summary } = JSON.parse(stdout);
  return { violations: summary.violations, totalCruised: summary.totalCruised };
}

const shown = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`;

// Each test runs depcruise in its own process: together they take the time of one.
describe('architecture', { concurrency: true }, () => {
  test('src/ keeps the architecture rules', async () => {
    const { violations, totalCruised } = await cruise(root);
    assert.ok(totalCruised > 150, `only ${totalCruised} modules cruised: the rules would pass vacuously`);
    assert.deepEqual(violations.map(shown), []);
  });

  test('the rules catch a cycle, an impure domain or sea router, a store or service on JSON:API, an import of HTTP from below, a sandbox reaching svc indirectly, an MCP server or client command past the REST API and an SDK importing svc', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-architecture-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
        'src/domain/rule.ts': "import { handler } from '../http/a.ts';\nexport const rule = handler;\n",
        'src/http/a.ts': "import { b } from './b.ts';\nexport const handler = () => b;\n",
        'src/http/b.ts': "import { handler } from './a.ts';\nexport const b = () => handler;\n",
        'src/store/rows.ts': "import { serialize } from '../jsonapi/serialize.ts';\nexport const rows = serialize;\n",
        'src/jsonapi/serialize.ts': 'export const serialize = () => 1;\n',
        'src/geo/route.ts': "import { rows } from '../store/rows.ts';\nexport const route = rows;\n",
        'src/sandbox/carrier.ts': "import { useCase } from './helper.ts';\nexport const carrier = useCase;\n",
        'src/sandbox/helper.ts': "import { useCase } from '../services/use-case.ts';\nexport { useCase };\n",
        'src/services/use-case.ts': "import { serialize } from '../jsonapi/serialize.ts';\nexport const useCase = serialize;\n",
        'src/mcp/tool.ts': "import { useCase } from '../services/use-case.ts';\nexport const tool = useCase;\n",
        'src/client-cli/track.ts': "import { loadConfig } from '../config/index.ts';\nexport const track = loadConfig;\n",
        'src/config/index.ts': 'export const loadConfig = () => 1;\n',
        'sdk/src/client.ts': "import { serialize } from '../../src/jsonapi/serialize.ts';\nexport const client = serialize;\n",
      };
      for (const [name, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
        await writeFile(path.join(dir, name), text);
      }
      const { violations } = await cruise(dir);
      const broken = new Set(violations.map((v) => `${v.rule.name} ${v.from}`));
      for (const expected of ['no-circular src/http/a.ts', 'domain-is-pure src/domain/rule.ts', 'store-below-presentation src/store/rows.ts', 'http-on-top src/domain/rule.ts', 'services-raise-domain-errors src/services/use-case.ts', 'geo-is-pure src/geo/route.ts', 'sandbox-is-a-separate-program src/sandbox/carrier.ts', 'mcp-is-a-rest-client src/mcp/tool.ts', 'client-cli-is-a-rest-client src/client-cli/track.ts', 'sdk-stands-alone sdk/src/client.ts']) {
        assert.ok(broken.has(expected), `${expected} not reported; got ${[...broken].join(', ')}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
