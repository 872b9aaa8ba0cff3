// The `svc` command: serve, and administration of accounts and API keys.
import { parseArgs } from 'node:util';
import { ConfigError, describeConfig, loadConfig, type Config } from '../config/index.ts';
import { maskedSetting } from '../config/mask.ts';
import { createApiKey, maskApiKey } from '../services/api-keys.ts';
import { findAccount, findDefaultAccount, insertAccount, listAccounts, listApiKeys, revokeApiKey } from '../store/accounts.ts';
import { EmbeddedPostgresError } from '../store/embedded-access.ts';
import { isUuid } from '../store/uuid.ts';
import { openDatabase, type Database } from './database.ts';
import { say } from './logger.ts';
import { runDeliveryWorker, runSandbox, serve, StartError } from './serve.ts';

const USAGE = `usage: svc <command>

  serve                                  start the REST API, the tracking worker and the sandbox carriers
  deliver                                run only the webhook delivery worker (beside svc serve, on the same database)
  sandbox                                run only the sandbox carrier network (SVC_SANDBOX_PORT, SVC_SANDBOX_SPEED)
  migrate                                apply database migrations and load reference data
  accounts create <name>                 create an account and print its first API key
  accounts list                          list accounts
  keys create [--account <id>] [--name <label>]
                                         create an API key (default account unless --account)
  keys list [--account <id>]             list API keys, masked
  keys revoke <key-id>                   revoke an API key
  config                                 list the environment variables svc reads, with the values in effect (secrets masked)
`;

/** The command line is wrong: the message and the usage, exit code 2. */
class UsageError extends Error {}
/** A well-formed command that cannot be carried out (no such key…): one line, exit code 1. */
class CommandError extends Error {}

async function withDatabase<T>(config: Config, fn: (db: Database['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase(config, say);
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)\n';
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? '-' : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n') + '\n';
}

const notAnId = (given: string, what: 'an account' | 'a key', list: string) => new CommandError(`${given} is not ${what} id (a UUID; see svc ${list})`);

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { account: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw new UsageError((err as Error).message); // an unknown option, a missing option value
  }
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseCommandLine(argv);
  const [command, sub, arg] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  // Not serve: a server started by a bare `npx svc` would be a surprise (npm start runs svc serve).
  if (!command) throw new UsageError('which command? (svc serve starts the server)');
  if (command === 'config') {
    const variables = describeConfig();
    const value = (v: (typeof variables)[number]) => (v.problem ? `invalid: ${v.problem}` : maskedSetting(v.name, v.value));
    process.stdout.write(table(variables.map((v) => ({ variable: v.name, value: value(v), default: maskedSetting(v.name, v.default), meaning: v.description }))));
    loadConfig(); // a bad value: the same message and exit code as svc would give at start
    return;
  }
  const config = loadConfig();
  const out = (s: string): void => void process.stdout.write(s);

  switch (`${command} ${sub ?? ''}`.trim()) {
    case 'serve':
      return serve(config);
    case 'sandbox':
      return runSandbox(config);
    case 'deliver':
      return runDeliveryWorker(config);
    case 'migrate':
      return withDatabase(config, async () => out('database is up to date\n'));
    case 'accounts create': {
      if (!sub || !arg) throw new UsageError('accounts create needs a name');
      return withDatabase(config, async (db) => {
        const account = await insertAccount(db, arg);
        const { key } = await createApiKey(db, account.id, 'first key');
        out(`account ${account.id} (${account.name})\nAPI key (shown once, keep it): ${key}\n`);
      });
    }
    case 'accounts list':
      return withDatabase(config, async (db) => {
        const rows = await listAccounts(db);
        out(table(rows.map((a) => ({ id: a.id, name: a.name, default: a.is_default ? 'yes' : '', active_keys: a.active_keys, created_at: a.created_at }))));
      });
    case 'keys create':
      if (values.account && !isUuid(values.account)) throw notAnId(values.account, 'an account', 'accounts list');
      return withDatabase(config, async (db) => {
        const account = values.account ? await findAccount(db, values.account) : await findDefaultAccount(db);
        if (!account) throw new CommandError(values.account ? `no account ${values.account}` : 'no default account yet: run svc serve once or pass --account');
        const { key, row } = await createApiKey(db, account.id, values.name ?? '');
        out(`key ${row.id} for account ${account.id}\nAPI key (shown once, keep it): ${key}\n`);
      });
    case 'keys list':
      if (values.account && !isUuid(values.account)) throw notAnId(values.account, 'an account', 'accounts list');
      return withDatabase(config, async (db) => {
        const rows = await listApiKeys(db, values.account);
        out(table(rows.map((k) => ({ id: k.id, account: k.account_id, name: k.name, key: maskApiKey(k), created_at: k.created_at, revoked_at: k.revoked_at }))));
      });
    case 'keys revoke': {
      if (!arg) throw new UsageError('keys revoke needs a key id (see svc keys list)');
      if (!isUuid(arg)) throw notAnId(arg, 'a key', 'keys list');
      return withDatabase(config, async (db) => {
        const now = new Date();
        const row = await revokeApiKey(db, arg, now);
        if (!row) throw new CommandError(`no key ${arg}`);
        const earlier = row.revoked_at && row.revoked_at.getTime() < now.getTime();
        out(earlier ? `key ${row.id} (${maskApiKey(row)}) was already revoked at ${row.revoked_at!.toISOString()}\n` : `revoked key ${row.id} (${maskApiKey(row)})\n`);
      });
    }
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartError || err instanceof EmbeddedPostgresError || err instanceof CommandError) process.stderr.write(`svc: ${err.message}
`);
  else if (err instanceof UsageError) process.stderr.write(`svc: ${err.message}\n\n${USAGE}`);
  else process.stderr.write(`svc: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
});
