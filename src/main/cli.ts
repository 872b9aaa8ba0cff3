// The `svc` command: serve, administration of accounts and API keys, and the client commands (src/client-cli/).
import { parseArgs } from 'node:util';
import { CLIENT_COMMANDS, CLIENT_USAGE, runClientCommand } from '../client-cli/index.ts';
import { table } from '../client-cli/table.ts';
import { apiBaseUrl, appUrl, ConfigError, describeConfig, loadConfig, type Config } from '../config/index.ts';
import { maskedSetting } from '../config/mask.ts';
import { systemClock } from '../clock.ts';
import { DomainError } from '../domain/errors.ts';
import { createApiKey, maskApiKey } from '../services/api-keys.ts';
import { changePassword, createUser, issueSignInLink, signInLinkUrl, userByEmail } from '../services/users.ts';
import { FEATURE_NAMES, FEATURES, featureStates, isFeature, setFeature, type Feature } from '../services/features.ts';
import { findAccount, findDefaultAccount, insertAccount, listAccounts, listApiKeys, revokeApiKey, type Account } from '../store/accounts.ts';
import { EmbeddedPostgresError } from '../store/embedded-access.ts';
import { listUsers } from '../store/users.ts';
import { isUuid } from '../store/uuid.ts';
import { openDatabase, type Database } from './database.ts';
import { say } from './logger.ts';
import { settle } from './start-up-memory.ts';
import { StartError } from './start-errors.ts';

/**
 * The server roles, loaded only when one runs: they pull in fastify, the workers and the sandbox
 * (about 0.8 s of start-up), which the client and administration commands do not need.
 */
const roles = () => import('./serve.ts');

const USAGE = `usage: svc <command>

  serve [--smtp]                         start the REST API, the tracking worker and the sandbox carriers;
                                         --smtp also takes e-mail on SVC_SMTP_PORT, or port 2525 when it
                                         is unset (npm start passes it)
  deliver                                run only the webhook delivery worker (beside svc serve, on the same database)
  sandbox                                run only the sandbox carrier network (SVC_SANDBOX_PORT, SVC_SANDBOX_SPEED)
  mcp [--stdio]                          run the MCP server alone: streamable HTTP on SVC_MCP_PORT, or stdio
                                         (SVC_API_TOKEN); it calls the REST API at SVC_API_BASE_URL
  migrate                                apply database migrations and load reference data
  accounts create <name>                 create an account and print its first API key
  accounts list                          list accounts
  accounts features <account-id> [--enable <feature>] [--disable <feature>]
                                         list an account's features (all on by default), or switch
                                         some on or off; each option may repeat. Features: ${FEATURE_NAMES.join(', ')}
  users create <e-mail> [--account <id>] [--name <name>] [--password-stdin]
                                         add a person who signs in to the web app (default account unless
                                         --account); prints a one-time sign-in link unless a password is
                                         read from stdin
  users list [--account <id>]            list web app users
  users reset-password <e-mail> [--password-stdin]
                                         print a one-time sign-in link to choose a new password (or set the
                                         one read from stdin); the user's sessions end when it changes
  keys create [--account <id>] [--name <label>]
                                         create an API key (default account unless --account)
  keys list [--account <id>]             list API keys, masked
  keys revoke <key-id>                   revoke an API key
  config                                 list the environment variables svc reads, with the values in effect (secrets masked)
  carriers list [--json]                 list the carriers svc knows (SVC_CARRIERS, the sandbox, the carrier
                                         catalogue): endpoint, DCSA version, authentication, whether the
                                         credentials are set, state; with a database, the last successful
                                         and failed request (and why) and any Retry-After holding it back
  carriers check <SCAC>                  make one authenticated request to the carrier (a token if OAuth2, then
                                         an events query for a made-up container) and say what worked; exit 1 if not

${CLIENT_USAGE}`;

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

const notAnId = (given: string, what: 'an account' | 'a key', list: string) => new CommandError(`${given} is not ${what} id (a UUID; see svc ${list})`);

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        account: { type: 'string' },
        name: { type: 'string' },
        stdio: { type: 'boolean' },
        smtp: { type: 'boolean' },
        'password-stdin': { type: 'boolean' },
        enable: { type: 'string', multiple: true },
        disable: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message); // an unknown option, a missing option value
  }
}

/** --enable and --disable as [feature, enabled] pairs; an unknown name, or one given both ways, is a usage error. */
function featureChanges(enable: string[], disable: string[]): [Feature, boolean][] {
  const changes: [string, boolean][] = [...enable.map((f): [string, boolean] => [f, true]), ...disable.map((f): [string, boolean] => [f, false])];
  const unknown = changes.find(([name]) => !isFeature(name));
  if (unknown) throw new UsageError(`unknown feature: ${unknown[0]} (features: ${FEATURE_NAMES.join(', ')})`);
  const both = enable.find((f) => disable.includes(f));
  if (both) throw new UsageError(`${both} is given to both --enable and --disable`);
  return changes as [Feature, boolean][];
}

/** The first line of stdin, for --password-stdin (a password on the command line would reach the shell's history). */
async function passwordFromStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const password = text.split(/\r?\n/)[0];
  if (!password) throw new UsageError('--password-stdin read no password');
  return password;
}

/** A service's refusal (taken address, short password, unknown user) in one line, exit code 1. */
async function refusalsAsCommandErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DomainError) throw new CommandError(err.detail);
    throw err;
  }
}

/** The sandbox's carriers as svc serve would reach them (SVC_SANDBOX), for the carriers commands. */
async function sandboxCarriers(config: Config) {
  if (!config.SVC_SANDBOX) return [];
  const [{ sandboxEndpoints }, { SANDBOX_SCACS }] = await Promise.all([import('../carriers/endpoints.ts'), import('../sandbox/world.ts')]);
  return sandboxEndpoints(`http://127.0.0.1:${config.SVC_SANDBOX_PORT}`, SANDBOX_SCACS);
}

const featureTable = (account: Account) =>
  table(Object.entries(featureStates(account.disabled_features)).map(([feature, on]) => ({ feature, enabled: on ? 'yes' : 'no', what: FEATURES[feature as Feature].description })));

async function main(argv: string[]): Promise<void> {
  // The client commands have options of their own and reach svc through its REST API only.
  if (CLIENT_COMMANDS.includes(argv[0])) {
    const config = loadConfig();
    process.exitCode = await runClientCommand(argv, { baseUrl: apiBaseUrl(config), token: config.SVC_API_TOKEN });
    return;
  }
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
  if (values.stdio && command !== 'mcp') throw new UsageError('--stdio is an option of svc mcp');
  if (values['password-stdin'] && !['users create', 'users reset-password'].includes(`${command} ${sub}`)) throw new UsageError('--password-stdin is an option of svc users create and svc users reset-password');
  if ((values.enable || values.disable) && `${command} ${sub}` !== 'accounts features') throw new UsageError('--enable and --disable are options of svc accounts features');
  if (values.json && `${command} ${sub}` !== 'carriers list') throw new UsageError('--json is an option of svc carriers list');
  const config = loadConfig();
  const out = (s: string): void => void process.stdout.write(s);

  switch (`${command} ${sub ?? ''}`.trim()) {
    // The long-running commands: once up, start-up's memory is given back (start-up-memory.ts).
    case 'serve':
      return (await roles()).serve(config, { smtp: values.smtp === true }).then(settle);
    case 'sandbox':
      return (await roles()).runSandbox(config).then(settle);
    case 'deliver':
      return (await roles()).runDeliveryWorker(config).then(settle);
    case 'mcp':
      return (await import('./mcp.ts')).runMcp(config, values.stdio === true).then(settle);
    case 'migrate':
      return withDatabase(config, async () => out('database is up to date\n'));
    case 'carriers list': {
      const [{ carrierOverview, carrierTableRow, withOutcomes }, { readCarrierOutcomes }] = await Promise.all([import('../carriers/overview.ts'), import('./carrier-outcomes.ts')]);
      const [carriers, read] = await Promise.all([sandboxCarriers(config).then((sandbox) => carrierOverview(config.SVC_CARRIERS ?? [], sandbox)), readCarrierOutcomes(config)]);
      const rows = 'outcomes' in read ? withOutcomes(carriers, read.outcomes, new Date()) : carriers;
      const unavailable = 'unavailable' in read ? `request outcomes unavailable: ${read.unavailable}` : undefined;
      if (values.json) return out(`${JSON.stringify({ carriers: rows, outcomes: unavailable ? { available: false, reason: unavailable } : { available: true } }, null, 2)}\n`);
      return out(table(rows.map(carrierTableRow)) + (unavailable ? `\n${unavailable}\n` : ''));
    }
    case 'carriers check': {
      if (!arg) throw new UsageError('carriers check needs a SCAC (see svc carriers list)');
      const { findCarrier } = await import('../carriers/overview.ts');
      const { catalogueCarrier } = await import('../carriers/catalogue.ts');
      const { protocolOf } = await import('../carriers/protocols.ts');
      const found = findCarrier(arg, config.SVC_CARRIERS ?? [], await sandboxCarriers(config));
      if (!found) {
        const known = catalogueCarrier(arg);
        throw new CommandError(known ? `${known.scac} (${known.name}) is not configured: add {"scac": "${known.scac}", …credentials} to SVC_CARRIERS` : `no carrier ${arg.toUpperCase()} in SVC_CARRIERS, the sandbox or the carrier catalogue`);
      }
      const check = protocolOf(found.carrier).check;
      if (!check) throw new CommandError(`${found.carrier.scac}: protocol ${found.carrier.protocol} has no check`);
      const { outcomeRecorder } = await import('./carrier-outcomes.ts');
      const outcomes = await outcomeRecorder(config);
      const report = await check(found.carrier, { outcomes: outcomes.recorder?.for(found.carrier.scac) }).finally(() => outcomes.close());
      const label = { ok: 'ok  ', fail: 'FAIL', note: '-   ' } as const;
      out(`${found.carrier.scac}${found.carrier.name ? ` (${found.carrier.name})` : ''}, from ${found.from === 'sandbox' ? 'the sandbox' : 'SVC_CARRIERS'}\n`);
      for (const line of report.lines) out(`${label[line.status]}  ${line.text}\n`);
      out(report.ok ? `${found.carrier.scac}: the carrier answered as expected\n` : `${found.carrier.scac}: check failed\n`);
      process.exitCode = report.ok ? 0 : 1;
      return;
    }
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
    case 'accounts features': {
      if (!arg) throw new UsageError('accounts features needs an account id (see svc accounts list)');
      if (!isUuid(arg)) throw notAnId(arg, 'an account', 'accounts list');
      const changes = featureChanges(values.enable ?? [], values.disable ?? []);
      return withDatabase(config, async (db) => {
        let account = await findAccount(db, arg);
        for (const [feature, enabled] of changes) account = account && (await setFeature(db, arg, feature, enabled));
        if (!account) throw new CommandError(`no account ${arg}`);
        out(featureTable(account));
      });
    }
    case 'users create': {
      if (!arg) throw new UsageError('users create needs an e-mail address');
      if (values.account && !isUuid(values.account)) throw notAnId(values.account, 'an account', 'accounts list');
      const password = values['password-stdin'] ? await passwordFromStdin() : undefined;
      return withDatabase(config, async (db) => {
        const account = values.account ? await findAccount(db, values.account) : await findDefaultAccount(db);
        if (!account) throw new CommandError(values.account ? `no account ${values.account}` : 'no default account yet: run svc serve once or pass --account');
        const user = await refusalsAsCommandErrors(() => createUser(db, systemClock, { accountId: account.id, email: arg, name: values.name, password }));
        out(`user ${user.id} (${user.email}) in account ${account.id} (${account.name})\n`);
        if (!password) out(`sign-in link (one-time, valid 24 h): ${signInLinkUrl(appUrl(config), await issueSignInLink(db, systemClock, user.id))}\n`);
      });
    }
    case 'users list':
      if (values.account && !isUuid(values.account)) throw notAnId(values.account, 'an account', 'accounts list');
      return withDatabase(config, async (db) => {
        const rows = await listUsers(db, values.account);
        out(table(rows.map((u) => ({ id: u.id, email: u.email, name: u.name, account: u.account_name, password: u.has_password ? 'set' : 'not yet', created_at: u.created_at }))));
      });
    case 'users reset-password': {
      if (!arg) throw new UsageError('users reset-password needs an e-mail address');
      const password = values['password-stdin'] ? await passwordFromStdin() : undefined;
      return withDatabase(config, async (db) => {
        const user = await refusalsAsCommandErrors(() => userByEmail(db, arg));
        if (password) {
          await refusalsAsCommandErrors(() => changePassword(db, systemClock, user.id, password));
          out(`password of ${user.email} changed; their sessions were signed out\n`);
        } else {
          out(`sign-in link for ${user.email} (one-time, valid 24 h): ${signInLinkUrl(appUrl(config), await issueSignInLink(db, systemClock, user.id))}\n`);
        }
      });
    }
    case 'keys create':
      if (values.account && !isUuid(values.account)) throw notAnId(values.account, 'an account', 'accounts list');
      return withDatabase(config, async (db) => {
        const account = values.account ? await findAccount(db, values.account) : await findDefaultAccount(db);
        if (!account) throw new CommandError(values.account ? `no account ${values.account}` : 'no default account yet: run svc serve once or pass --account');
        const { key, row } = await refusalsAsCommandErrors(() => createApiKey(db, account.id, values.name ?? ''));
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
