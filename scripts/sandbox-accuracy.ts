// How well does svc track the sandbox carriers? Compares svc's transport events for a batch of
// numbers with the sandbox's ground truth and prints the share of true milestones svc shows with
// the right time, place and zone, the spurious ones, completeness, correctness and freshness.
// The sandbox sends its events as untidily as real carriers (src/sandbox/dirt.ts); its truth
// says which milestones a user should still see.
//
//   node --import tsx scripts/sandbox-accuracy.ts --svc http://localhost:8080 --key <API_KEY> \
//     --sandbox http://127.0.0.1:4010 [--numbers SCAC:NUMBER[:TYPE],…] [--tolerance-minutes 1] [--json]
//
// TYPE is bill_of_lading, booking_number or container; without it a number shaped like a container
// number (ISO 6346: 4 letters and 7 digits) is a container, and the sandbox decides for the rest
// (a test number's own type, else bill_of_lading). Without --numbers, every sandbox test number that
// should succeed is checked. Only milestones the
// sandbox has published by its own "now" count: svc cannot know the rest yet.
import { parseArgs } from 'node:util';

const NUMBER_TYPES = ['bill_of_lading', 'booking_number', 'container'] as const;
type NumberType = (typeof NUMBER_TYPES)[number];

interface NumberToCheck {
  scac: string;
  number: string;
  /** Unset: the sandbox picks (a test number's documented type, else bill_of_lading). */
  type?: NumberType;
}

interface Options {
  svc: string;
  key: string;
  sandbox: string;
  numbers: NumberToCheck[] | null;
  toleranceMs: number;
  json: boolean;
}

interface TrueMilestone {
  event: string;
  container: string;
  timestamp: string;
  locode: string;
  published_at: string;
  source: 'dcsa' | 'terminal';
  /** What a user should see of it (src/sandbox/ground-truth.ts); absent from older sandboxes, where the true place is shown and the zone is not checked. */
  showable?: boolean;
  shown_locode?: string | null;
  shown_timezone?: string | null;
  quirks?: string[];
}

interface SvcEvent {
  event: string;
  timestamp: string | null;
  timezone: string | null;
  location_locode: string | null;
  created_at: string;
}

interface Finding {
  scac: string;
  number: string;
  container: string;
  event: string;
  expected: { timestamp: string; locode: string | null; timezone: string | null };
  got: { timestamp: string | null; locode: string | null; timezone: string | null } | null;
  /** How the carrier garbled the event that told it. */
  quirks: string[];
  correct: boolean;
  /** svc's created_at minus the later of the publication time and svc's first lookup, in minutes. */
  freshnessMinutes: number | null;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      svc: { type: 'string' },
      key: { type: 'string' },
      sandbox: { type: 'string' },
      numbers: { type: 'string' },
      'tolerance-minutes': { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    },
  });
  const missing = (['svc', 'key', 'sandbox'] as const).filter((k) => !values[k]);
  if (missing.length > 0) {
    process.stderr.write(`missing --${missing.join(', --')}\nusage: sandbox-accuracy --svc URL --key API_KEY --sandbox URL [--numbers SCAC:NUMBER[:TYPE],…] [--tolerance-minutes N] [--json]\n`);
    process.exit(2);
  }
  const numbers = values.numbers ? values.numbers.split(',').map(parseNumber) : null;
  return {
    svc: values.svc!.replace(/\/$/, ''),
    key: values.key!,
    sandbox: values.sandbox!.replace(/\/$/, ''),
    numbers,
    toleranceMs: Number(values['tolerance-minutes']) * 60_000,
    json: values.json!,
  };
}

/**
 * `SCAC:NUMBER[:TYPE]`. Without a type, a number shaped like an ISO 6346 container number (four
 * letters, seven digits, once spaces and dashes are gone) is a container.
 */
function parseNumber(spec: string): NumberToCheck {
  const [scac, number, type, ...extra] = spec.trim().split(':').map((part) => part.trim());
  if (!scac || !number || extra.length > 0) throw new Error(`--numbers: '${spec}' is not SCAC:NUMBER[:TYPE]`);
  if (type !== undefined && !(NUMBER_TYPES as readonly string[]).includes(type)) {
    throw new Error(`--numbers: '${spec}': the type must be ${NUMBER_TYPES.join(', ')}`);
  }
  if (type) return { scac, number, type: type as NumberType };
  return /^[A-Z]{4}\d{7}$/.test(number.toUpperCase().replace(/[\s-]+/g, '')) ? { scac, number, type: 'container' } : { scac, number };
}

/** GET with JSON; waits out svc's rate limit (429 + Retry-After) a few times rather than failing the run. */
async function getJson(url: string, headers: Record<string, string> = {}): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(30_000) });
    if (res.status === 429 && attempt <= 5) {
      const seconds = Math.min(60, Number(res.headers.get('retry-after')) || 10);
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res.json();
  }
}

/** Every transport event svc has for a container number (all pages), or null when svc has no such container. */
async function svcEvents(options: Options, container: string): Promise<SvcEvent[] | null> {
  const auth = { authorization: `Token ${options.key}` };
  const list = await getJson(`${options.svc}/v2/containers?filter[number]=${encodeURIComponent(container)}`, auth);
  const id = list.data?.[0]?.id as string | undefined;
  if (!id) return null;
  const events: SvcEvent[] = [];
  let next: string | null = `${options.svc}/v2/containers/${id}/transport_events?page[size]=100`;
  while (next) {
    const page = await getJson(next, auth);
    events.push(...page.data.map((d: { attributes: SvcEvent }) => d.attributes));
    next = page.links?.next ?? null;
  }
  return events;
}

/** The place a user should see: the true one, or none when the carrier sent none and nothing else placed it. */
const shownPlace = (m: TrueMilestone) => (m.shown_locode === undefined ? m.locode : m.shown_locode);

/** Pairs one true milestone with svc's event of the same name, preferring the same place, then the nearest time. */
function bestMatch(truth: TrueMilestone, candidates: SvcEvent[]): SvcEvent | null {
  const same = candidates.filter((c) => c.event === truth.event);
  if (same.length === 0) return null;
  const distance = (c: SvcEvent) => {
    const apart = Math.abs(Date.parse(c.timestamp ?? '') - Date.parse(truth.timestamp));
    return (c.location_locode === shownPlace(truth) ? 0 : 1e15) + (Number.isNaN(apart) ? 1e14 : apart);
  };
  return same.reduce((best, c) => (distance(c) < distance(best) ? c : best));
}

/**
 * A carrier event carries its own time, which svc must keep. Terminal data has none: svc can only
 * date availability when it looks, so its time is right if it is not before the box became available.
 */
function timeIsRight(truth: TrueMilestone, got: SvcEvent, toleranceMs: number): boolean {
  const delta = Date.parse(got.timestamp ?? '') - Date.parse(truth.timestamp);
  return truth.source === 'terminal' ? delta >= -toleranceMs : Math.abs(delta) <= toleranceMs;
}

function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`);
const minutes = (m: number | null) => (m === null ? 'n/a' : `${m.toFixed(1)} min`);

async function main(): Promise<void> {
  const options = readOptions();
  const numbers =
    options.numbers ??
    ((await getJson(`${options.sandbox}/sandbox/test-numbers`)) as { scac: string; number: string; number_type: NumberType; failed_reason: string | null }[])
      .filter((t) => t.failed_reason === null)
      .map((t): NumberToCheck => ({ scac: t.scac, number: t.number, type: t.number_type }));

  const findings: Finding[] = [];
  const extras: { scac: string; number: string; container: string; event: string; timestamp: string | null; locode: string | null }[] = [];
  const notInSvc: string[] = [];
  let unshowable = 0;
  for (const { scac, number, type } of numbers) {
    const truth = await getJson(`${options.sandbox}/sandbox/journeys/${scac}/${encodeURIComponent(number)}${type ? `?type=${type}` : ''}`);
    const now = Date.parse(truth.now);
    // Events published before svc first asked about the number could not reach it earlier.
    const firstAsked = Date.parse(truth.first_seen_at);
    const published = (truth.milestones as TrueMilestone[]).filter((m) => Date.parse(m.published_at) <= now);
    unshowable += published.filter((m) => m.showable === false).length;
    for (const { number: container } of truth.containers ?? []) {
      const theirs = await svcEvents(options, container);
      if (theirs === null) {
        notInSvc.push(`${scac}:${number}/${container}`);
        continue;
      }
      const ours = published.filter((m) => m.container === container && m.showable !== false);
      const used = new Set<SvcEvent>();
      for (const m of ours) {
        const got = bestMatch(m, theirs.filter((e) => !used.has(e)));
        if (got) used.add(got);
        const zoneIsRight = m.shown_timezone === undefined || got?.timezone === m.shown_timezone;
        const correct = !!got && got.location_locode === shownPlace(m) && timeIsRight(m, got, options.toleranceMs) && zoneIsRight;
        findings.push({
          scac,
          number,
          container,
          event: m.event,
          expected: { timestamp: m.timestamp, locode: shownPlace(m), timezone: m.shown_timezone ?? null },
          got: got ? { timestamp: got.timestamp, locode: got.location_locode, timezone: got.timezone } : null,
          quirks: m.quirks ?? [],
          correct,
          freshnessMinutes: got ? (Date.parse(got.created_at) - Math.max(Date.parse(m.published_at), firstAsked)) / 60_000 : null,
        });
      }
      // Unmatched svc events with no true milestone of that name at that place (published yet or
      // not: the sandbox's "now" was read first) are spurious. Estimated events are not milestones.
      const known = new Set((truth.milestones as TrueMilestone[]).filter((m) => m.container === container).flatMap((m) => [`${m.event}@${m.locode}`, `${m.event}@${shownPlace(m)}`]));
      for (const e of theirs) {
        if (used.has(e) || e.event.includes('.estimated.') || known.has(`${e.event}@${e.location_locode}`)) continue;
        extras.push({ scac, number, container, event: e.event, timestamp: e.timestamp, locode: e.location_locode });
      }
    }
  }

  const found = findings.filter((f) => f.got);
  const freshness = found.map((f) => f.freshnessMinutes!).sort((a, b) => a - b);
  const right = found.filter((f) => f.correct).length;
  const summary = {
    numbers: numbers.length,
    published_milestones: findings.length,
    /** True milestones svc shows with the right time, place and zone, of those a user should see. */
    accuracy: findings.length === 0 ? null : right / findings.length,
    /** Vessel moves published with no place that nothing else placed: no user can tell which leg they were. */
    not_showable: unshowable,
    quirked_milestones: findings.filter((f) => f.quirks.length > 0).length,
    completeness: findings.length === 0 ? null : found.length / findings.length,
    correctness: found.length === 0 ? null : found.filter((f) => f.correct).length / found.length,
    freshness_minutes: { median: quantile(freshness, 0.5), p95: quantile(freshness, 0.95) },
    containers_not_in_svc: notInSvc,
    missing: findings.filter((f) => !f.got),
    wrong: found.filter((f) => !f.correct),
    spurious: extras,
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const out: string[] = [
    `numbers checked:        ${numbers.length}`,
    `published milestones:   ${findings.length} a user should see (${summary.quirked_milestones} told by garbled events), ${unshowable} more are vessel moves sent with no place`,
    `accuracy:               ${percent(right, findings.length)} shown with the right time, place and zone (goal ≥ 99.5 %)`,
    `spurious:               ${extras.length} (goal 0)`,
    `completeness:           ${percent(found.length, findings.length)} (${found.length} found in svc)`,
    `correctness:            ${percent(found.length - summary.wrong.length, found.length)} (same UN/LOCODE and zone; carrier times within ${options.toleranceMs / 60_000} min, terminal availability not before it happened)`,
    `freshness:              median ${minutes(summary.freshness_minutes.median)}, p95 ${minutes(summary.freshness_minutes.p95)} (svc created_at − published_at, or − first lookup if later)`,
  ];
  if (notInSvc.length > 0) out.push('', `containers svc does not have (${notInSvc.length}): ${notInSvc.join(' ')}`);
  const byEvent = new Map<string, number>();
  for (const f of summary.missing) byEvent.set(f.event, (byEvent.get(f.event) ?? 0) + 1);
  if (byEvent.size > 0) out.push('', 'missing in svc, by milestone:', ...[...byEvent].sort((a, b) => b[1] - a[1]).map(([e, n]) => `  ${String(n).padStart(4)}  ${e}`));
  if (summary.wrong.length > 0) {
    out.push('', 'wrong time or place:');
    for (const f of summary.wrong.slice(0, 30)) {
      const quirks = f.quirks.length > 0 ? ` [sent ${f.quirks.join(', ')}]` : '';
      out.push(`  ${f.scac}:${f.number} ${f.container} ${f.event}: expected ${f.expected.timestamp} ${f.expected.locode} ${f.expected.timezone ?? ''}, svc ${f.got!.timestamp} ${f.got!.locode} ${f.got!.timezone ?? ''}${quirks}`);
    }
  }
  if (extras.length > 0) {
    out.push('', `in svc but not in the ground truth (${extras.length}):`);
    for (const x of extras.slice(0, 30)) out.push(`  ${x.scac}:${x.number} ${x.container} ${x.event} ${x.locode ?? ''} ${x.timestamp ?? ''}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
