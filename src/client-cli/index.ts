// The client commands of `svc`: track, watch, and list/show of containers, shipments and tracking
// requests. They are a REST client like any other: everything goes through the SDK to the API at
// --base-url (SVC_API_BASE_URL), never to svc's services or database, so they work against any
// svc the token opens, local or remote.
import { SvcError } from '../../sdk/src/index.ts';
import { describeFailure } from './failure.ts';
import { processIo, type Io } from './io.ts';
import { ClientCommandError, ClientUsageError, connect, parseCommand, parseInterval, positiveWhole, type ClientDefaults } from './options.ts';
import { list, RESOURCES, show } from './resources.ts';
import { track } from './track.ts';
import { watch } from './watch.ts';

export type { ClientDefaults } from './options.ts';

/** The first words that name a client command. */
export const CLIENT_COMMANDS: readonly string[] = ['track', 'watch', ...Object.keys(RESOURCES)];

export const CLIENT_USAGE = `client commands (through the REST API: --base-url or SVC_API_BASE_URL, --token or SVC_API_TOKEN):
  track <number> [--scac XXXX] [--type container|bill_of_lading|booking_number] [--ref R]... [--json]
                                         track a number (the shipping line inferred when --scac is left out)
  watch <id|number> [--interval 5s] [--json]
                                         follow a tracking request to its shipment, then each new milestone
  containers|shipments|tracking-requests list [--status S] [--number N] [--q Q] [--all] [--page-size N] [--json]
                                         a table of the first page (--all: every page)
  containers|shipments|tracking-requests show <id> [--json]
                                         one record's key fields
  containers show <number> [--json]      a container by number: location, ETA, last free day, holds, fees
`;

const DEFAULT_INTERVAL_MS = 5000;

/** Runs one client command; its exit code (0, 1 failed, 2 bad command line, 130 interrupted). */
export async function runClientCommand(argv: string[], defaults: ClientDefaults, io: Io = processIo()): Promise<number> {
  try {
    return (await dispatch(argv, defaults, io)) ?? 0;
  } catch (err) {
    if (err instanceof ClientUsageError) {
      io.note(`${err.message}\n\n${CLIENT_USAGE.trimEnd()}`);
      return 2;
    }
    if (err instanceof ClientCommandError) {
      io.note(err.message);
      return err.exitCode;
    }
    if (err instanceof SvcError) {
      io.note(describeFailure(err));
      return 1;
    }
    throw err;
  }
}

async function dispatch(argv: string[], defaults: ClientDefaults, io: Io): Promise<number | void> {
  const [command, ...rest] = argv;
  const help = (values: { help?: boolean }) => values.help && (io.out(CLIENT_USAGE), true);
  if (command === 'track') {
    const { values, positionals } = parseCommand('track', rest);
    if (help(values)) return;
    const [number, extra] = positionals;
    if (!number || extra !== undefined) throw new ClientUsageError('track needs one number, e.g. svc track MSKU7531597');
    return track(connect(values, defaults), io, { number, scac: values.scac, type: values.type, refs: values.ref ?? [], json: values.json ?? false });
  }
  if (command === 'watch') {
    const { values, positionals } = parseCommand('watch', rest);
    if (help(values)) return;
    const [target, extra] = positionals;
    if (!target || extra !== undefined) throw new ClientUsageError('watch needs one tracking request id or number');
    const intervalMs = values.interval === undefined ? DEFAULT_INTERVAL_MS : parseInterval(values.interval);
    return whileNotInterrupted((signal) => watch(connect(values, defaults), io, { target, intervalMs, json: values.json ?? false, signal }));
  }
  const [action, ...args] = rest;
  if (action === 'list') {
    const { values, positionals } = parseCommand('list', args);
    if (help(values)) return;
    if (positionals.length) throw new ClientUsageError(`${command} list takes no arguments (filters are options: --status, --number, --q)`);
    const filters = { status: values.status, number: values.number, q: values.q };
    return list(connect(values, defaults), io, command, { filters, all: values.all ?? false, pageSize: positiveWhole('page-size', values['page-size']), json: values.json ?? false });
  }
  if (action === 'show') {
    const { values, positionals } = parseCommand('show', args);
    if (help(values)) return;
    if (positionals.length !== 1) throw new ClientUsageError(`${command} show needs one id (see svc ${command} list)`);
    return show(connect(values, defaults), io, command, positionals[0], values.json ?? false);
  }
  throw new ClientUsageError(`${command} needs list or show`);
}

/** Ctrl-C ends the command gracefully once; a second Ctrl-C ends the process as usual. */
async function whileNotInterrupted(run: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    return await run(controller.signal);
  } finally {
    process.off('SIGINT', interrupt);
  }
}
