// A Node.js new enough for the MCP tools that have left Node 20 behind: the conformance suite
// (fs.globSync) and the Inspector 2.12 (engines >= 22.19). svc itself still runs on 20, so the
// tools run as child processes on another node: this one when it is new enough (CI reruns the
// suite on 22 and 24), else the binary SVC_TEST_NODE22 names (.ci/run installs one from the npm
// registry for the Node 20 run too).
import { spawn, spawnSync } from 'node:child_process';
import semver from 'semver';

export const NODE22_MINIMUM = '22.19.0';

/**
 * devDependencies that only ever run on that node, as child processes, never loaded by Node 20:
 * test/engines.test.ts lets the packages only they need ask for a newer Node.js (npm ci warns of
 * them on Node 20, EBADENGINE, and installs them).
 */
export const NODE22_TOOLS = ['@modelcontextprotocol/conformance', '@modelcontextprotocol/inspector'];

/** The node binary to run the tools with, or why there is none (a test skips with that reason). */
export function findNode22(): { node: string; version: string } | { skip: string } {
  if (semver.gte(process.version, NODE22_MINIMUM)) return { node: process.execPath, version: process.version };
  const named = process.env.SVC_TEST_NODE22;
  if (!named) return { skip: `needs Node.js >= ${NODE22_MINIMUM}: this is ${process.version} and SVC_TEST_NODE22 names no newer node binary` };
  const version = spawnSync(named, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const found = version.status === 0 ? version.stdout.trim() : undefined;
  if (!found) return { skip: `SVC_TEST_NODE22=${named} does not run (${version.error?.message ?? version.stderr.trim()})` };
  if (!semver.gte(found, NODE22_MINIMUM)) return { skip: `SVC_TEST_NODE22=${named} is Node.js ${found}, older than ${NODE22_MINIMUM}` };
  return { node: named, version: found };
}

export interface ToolRun {
  code: number | null;
  /** Set when the run was stopped for taking longer than its limit. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node <args>` to its end, or stops it (SIGKILL) after `timeoutMs`. */
export function runOnNode(node: string, args: string[], options: { timeoutMs: number; env?: Record<string, string>; cwd?: string }): Promise<ToolRun> {
  const started = performance.now();
  const child = spawn(node, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (output.stdout += d));
  child.stderr.on('data', (d: Buffer) => (output.stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, ...output, ms: Math.round(performance.now() - started) });
    });
  });
}
