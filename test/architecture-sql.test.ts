// House rule: SQL lives only in src/store/, behind named functions. This reads every other source
// file with the TypeScript parser (so comments and prose do not count) and looks for the two
// shapes SQL takes in this code base: a call to a `.query` method, and a string or template
// whose text is an SQL statement.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const store = path.join(src, 'store');

// What SQL starts with, as svc writes it (keywords in capitals), including the statements that
// are not data manipulation: locks, LISTEN, transactions, DDL.
const SQL_STATEMENT =
  /^\s*(?:SELECT\s[\s\S]*\bFROM\s|SELECT\s+(?:\d|pg_|\$)|INSERT\s+INTO\s|UPDATE\s+\w+(?:\s+\w+)?\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\(|(?:UN)?LISTEN\s|NOTIFY\s|(?:CREATE|ALTER|DROP|TRUNCATE)\s+(?:TABLE|INDEX|DATABASE|ROLE|SCHEMA|EXTENSION|FUNCTION|TRIGGER|VIEW)\b|(?:BEGIN|COMMIT|ROLLBACK)\s*;?\s*$)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === store ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The text of a string or template literal, with each substitution as a placeholder word. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `x${span.literal.text}`).join('');
  return undefined;
}

/** Where a file runs SQL: `file:line what` for each `.query` call and each SQL text. */
function sqlIn(file: string, text: string): string[] {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
    found.push(`${path.relative(root, file)}:${line} ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) || ts.isPropertyAccessChain(node.expression) ? node.expression.name.text : undefined;
      if (callee === 'query') at(node, 'calls .query()');
    }
    const literal = literalText(node);
    if (literal !== undefined && SQL_STATEMENT.test(literal)) at(node, `SQL text: ${literal.trim().split('\n')[0].slice(0, 60)}`);
    // A template's parts are visited through the whole template above, not one by one.
    if (!ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
    else node.templateSpans.forEach((span) => visit(span.expression));
  };
  visit(sourceFile);
  return found;
}

test('the detector finds the shapes SQL takes, and not prose about SQL', () => {
  const sample = [
    "await db.query('SELECT 1');",
    'await tx.query<{ id: string }>(sql, [id]);',
    'const text = `UPDATE shipments SET next_refresh_at = $2 WHERE id = ${table}`;',
    "const a = 'SELECT locode, name FROM locations WHERE locode = ANY($1)';",
    'const b = `INSERT INTO ${table} (id) VALUES ($1)`;',
    'const c = "UPDATE tracking_requests t SET status = $2";',
    "const d = 'DELETE FROM webhooks';",
    'const e = `LISTEN ${channel}`;',
    "const f = 'SELECT pg_advisory_xact_lock($1)';",
    '// SELECT * FROM comments does not count',
    "const prose = 'Select the shipments you want, then update them';",
    "const log = 'tracking worker: listening connection lost';",
    'const url = new URL(req.url).searchParams;',
  ].join('\n');
  const found = sqlIn(path.join(src, 'sample.ts'), sample);
  const lines = [...new Set(found.map((f) => Number(/:(\d+) /.exec(f)?.[1])))];
  assert.deepEqual(lines, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('no file under src/ outside src/store/ contains SQL', () => {
  const found = sourceFiles(src).flatMap((file) => sqlIn(file, readFileSync(file, 'utf8')));
  assert.deepEqual(found, [], `SQL belongs in src/store/ behind a named function:\n${found.join('\n')}`);
});
