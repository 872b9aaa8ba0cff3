// `npm run bench:startup`: how fast `svc serve` starts and how much memory it holds once idle, as
// the production start runs it (`node bin/svc.js serve`: the compiled program, bin/build.js) beside
// the sources through tsx (`node --import tsx src/main/cli.ts serve`, what every start ran before).
// Each scenario is started BENCH_ROUNDS times (default 5), the scenarios taking turns, each with its
// own data folder and ports: the first round is a first start (a new data folder: initdb for the
// embedded PostgreSQL), later rounds are second starts. Before the rounds, one start with a build
// input touched shows what a first `npm start` after a change of the sources pays to compile.
// Measured: time from spawn until GET /healthz answers 200 and until the web app's sign-in page
// answers, the node process's CPU time until then (the steady figure on a busy machine), and its RSS
// (VmRSS in /proc, the embedded PostgreSQL child excluded) BENCH_IDLE_SECONDS (default 10) later. With the embedded
// PostgreSQL (as npm start runs) and with DATABASE_URL (a fresh database on SVC_TEST_DATABASE_URL or
// DATABASE_URL, else the embedded server npm test uses): the difference is PostgreSQL's own start.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIST_DIR, fingerprint } from '../bin/build.js';
import { benchDatabase } from './database.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const GOAL_START_S = 1.5;
const GOAL_RSS_MB = 150;
const root = path.resolve(import.meta.dirname, '..');

interface Scenario {
  name: string;
  args: string[];
  embedded: boolean;
  dataDir: string;
}

interface Run {
  healthS: number;
  webS: number;
  cpuS: number;
  rssMb: number;
  compiled: boolean;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** user + system CPU seconds of a process so far (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Polls until the URL answers `ok`; seconds since `t0`. */
async function answered(url: string, t0: number, ok: (status: number) => boolean, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`svc exited with ${child.exitCode} before ${url} answered`);
    const status = await fetch(url, { redirect: 'manual' }).then((r) => (r.body?.cancel(), r.status), () => 0);
    if (ok(status)) return (performance.now() - t0) / 1000;
    await sleep(20);
  }
}

async function startOnce(s: Scenario, databaseUrl: string): Promise<Run> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    SVC_SANDBOX_PORT: '0',
    SVC_SANDBOX_AIS_PORT: '0',
    SVC_EMBEDDED_PG_PORT: String(await freePort()),
    SVC_DATA_DIR: s.dataDir,
    SVC_LOG_LEVEL: 'warn',
    DATABASE_URL: s.embedded ? '' : databaseUrl,
  };
  const t0 = performance.now();
  const child = spawn(process.execPath, s.args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const origin = `http://127.0.0.1:${port}`;
    const healthS = await answered(`${origin}/healthz`, t0, (st) => st === 200, child);
    const cpuS = cpuSeconds(child.pid!);
    const webS = await answered(`${origin}/sign-in`, t0, (st) => st === 200, child);
    // Settled: start-up's last steps (the banner, a garbage collection) come just after listening.
    await sleep(idleSeconds * 1000);
    return { healthS, webS, cpuS, rssMb: rssMb(child.pid!), compiled: stderr.includes('compiled in') };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${stderr}`);
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

const database = await benchDatabase();
// node's own options as npm start gives them (package.json: the words between node and bin/svc.js), for both scenarios.
const startWords = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
const nodeOptions = startWords.slice(1, startWords.indexOf('bin/svc.js'));
const scenarios: Scenario[] = [];
for (const embedded of [true, false]) {
  for (const [name, args] of [
    ['compiled', [...nodeOptions, 'bin/svc.js', 'serve', '--smtp']],
    ['tsx', [...nodeOptions, '--import', 'tsx', 'src/main/cli.ts', 'serve', '--smtp']],
  ] as const) {
    scenarios.push({ name: `${name}, ${embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`, args: [...args], embedded, dataDir: mkdtempSync(path.join(tmpdir(), 'svc-bench-startup-')) });
  }
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
process.stdout.write(`node ${process.version}, ${rounds} rounds, RSS read ${idleSeconds} s after /healthz answers; load average ${load()}\n`);

try {
  // A start that compiles first: touching bin/build.js (an input of the build) gives the
  // sources a new fingerprint, so a build is made without removing one a running svc may use.
  const now = new Date();
  utimesSync(path.join(root, 'bin/build.js'), now, now);
  if (existsSync(path.join(DIST_DIR, fingerprint()))) throw new Error('touching bin/build.js did not change the fingerprint');
  const buildDir = mkdtempSync(path.join(tmpdir(), 'svc-bench-startup-'));
  const withBuild = await startOnce({ name: 'compile', args: ['bin/svc.js', 'serve'], embedded: false, dataDir: buildDir }, database.url);
  rmSync(buildDir, { recursive: true, force: true });
  process.stdout.write(`start that compiles first (DATABASE_URL): /healthz after ${withBuild.healthS.toFixed(2)} s${withBuild.compiled ? '' : ' (no compile seen!)'}\n\n`);

  const runs = new Map<string, Run[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const s of scenarios) {
      const run = await startOnce(s, database.url);
      if (s.name.startsWith('compiled') && run.compiled) throw new Error('a second start compiled again');
      runs.get(s.name)!.push(run);
      process.stdout.write(`round ${round + 1} ${s.name.padEnd(30)} healthz ${run.healthS.toFixed(2)} s, web ${run.webS.toFixed(2)} s, CPU ${run.cpuS.toFixed(2)} s, RSS ${run.rssMb.toFixed(0)} MB\n`);
    }
  }

  process.stdout.write(`\nload average ${load()}\n`);
  process.stdout.write(`${'scenario'.padEnd(30)} ${'first start'.padEnd(12)} ${'second starts: healthz median (range)'.padEnd(38)} ${'web page'.padEnd(10)} ${'CPU'.padEnd(8)} idle RSS median (range)\n`);
  const summary = new Map<string, { health: number; cpu: number; rss: number }>();
  for (const s of scenarios) {
    const [first, ...later] = runs.get(s.name)!;
    const seconds = later.length > 0 ? later : [first];
    const health = median(seconds.map((r) => r.healthS));
    const cpu = median(seconds.map((r) => r.cpuS));
    const all = runs.get(s.name)!;
    const rss = median(all.map((r) => r.rssMb));
    summary.set(s.name, { health, cpu, rss });
    process.stdout.write(
      `${s.name.padEnd(30)} ${`${first.healthS.toFixed(2)} s`.padEnd(12)} ${`${health.toFixed(2)} s (${range(seconds.map((r) => r.healthS), 2)})`.padEnd(38)} ${`${median(seconds.map((r) => r.webS)).toFixed(2)} s`.padEnd(10)} ${`${cpu.toFixed(2)} s`.padEnd(8)} ${rss.toFixed(0)} MB (${range(all.map((r) => r.rssMb), 0)})\n`,
    );
  }
  const c = summary.get('compiled, embedded PostgreSQL')!;
  const t = summary.get('tsx, embedded PostgreSQL')!;
  const cx = summary.get('compiled, DATABASE_URL')!;
  const tx = summary.get('tsx, DATABASE_URL')!;
  process.stdout.write(
    [
      '',
      `second start (npm start, embedded PostgreSQL): ${c.health.toFixed(2)} s, ${(c.health / GOAL_START_S).toFixed(2)}× the ${GOAL_START_S} s goal; ${(c.health / t.health).toFixed(2)}× the tsx start; CPU ${(c.cpu / t.cpu).toFixed(2)}× tsx's`,
      `  of which PostgreSQL's own start ≈ ${(c.health - cx.health).toFixed(2)} s (embedded minus DATABASE_URL); without it ${cx.health.toFixed(2)} s, ${(cx.health / GOAL_START_S).toFixed(2)}× the goal, ${(cx.health / tx.health).toFixed(2)}× tsx`,
      `idle RSS of svc's node process: ${c.rss.toFixed(0)} MB (embedded PostgreSQL), ${cx.rss.toFixed(0)} MB (DATABASE_URL): ${(c.rss / GOAL_RSS_MB).toFixed(2)}× the ${GOAL_RSS_MB} MB goal; ${(c.rss / t.rss).toFixed(2)}× the tsx start's (${t.rss.toFixed(0)} MB)`,
      '',
    ].join('\n'),
  );
} finally {
  for (const s of scenarios) rmSync(s.dataDir, { recursive: true, force: true });
  await database.drop();
}
