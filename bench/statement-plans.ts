// What a request costs the database, measured in pages rather than milliseconds: the statements
// svc's pool runs while one request is served are noted, then each is run again under EXPLAIN
// (ANALYZE, BUFFERS) in a transaction rolled back after it (the rate limiter's write included).
// Buffers touched do not move with the machine's load as wall-clock times do, so they tell a
// route that does more work on a larger database from one that met a busy moment.
// (Each statement is planned for its values here; a named one may run a generic plan in svc.)
import pg from 'pg';
import type { Db } from '../src/store/db.ts';

export interface Statement {
  text: string;
  values: unknown[];
}

/** Notes the statements `db` runs while `recording` is on: wraps its query once. */
export function statementRecorder(db: Db): { during<T>(run: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> } {
  let seen: Statement[] | undefined;
  const query = db.query.bind(db) as (...args: unknown[]) => unknown;
  db.query = ((...args: unknown[]) => {
    const [first, values] = args as [string | pg.QueryConfig, unknown];
    if (seen) seen.push(typeof first === 'string' ? { text: first, values: Array.isArray(values) ? values : [] } : { text: first.text, values: first.values ?? [] });
    return query(...args);
  }) as typeof db.query;
  return {
    async during(run) {
      seen = [];
      try {
        const result = await run();
        return { result, statements: seen };
      } finally {
        seen = undefined;
      }
    },
  };
}

export interface StatementCost {
  statement: Statement;
  /** Shared buffers the plan touched (hit or read), planning left out. */
  buffers: number;
  executionMs: number;
  /** The plan as EXPLAIN's text, when asked for. */
  plan?: string;
}

interface JsonPlan {
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  'Execution Time': number;
}

/** Each statement EXPLAINed with ANALYZE and BUFFERS on `client` (its plan's text too with `withPlans`), nothing it writes kept. */
export async function statementCosts(client: pg.ClientBase, statements: Statement[], withPlans = false): Promise<StatementCost[]> {
  const explained = async (statement: Statement, options: string) => {
    await client.query('BEGIN');
    try {
      return (await client.query(`EXPLAIN (ANALYZE, BUFFERS${options}) ${statement.text}`, statement.values)).rows;
    } finally {
      await client.query('ROLLBACK');
    }
  };
  const costs: StatementCost[] = [];
  for (const statement of statements) {
    const json = ((await explained(statement, ', FORMAT JSON')) as { 'QUERY PLAN': JsonPlan[] }[])[0]['QUERY PLAN'][0];
    const plan = withPlans ? ((await explained(statement, '')) as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n') : undefined;
    costs.push({ statement, buffers: json.Plan['Shared Hit Blocks'] + json.Plan['Shared Read Blocks'], executionMs: json['Execution Time'], plan });
  }
  return costs;
}
