// Why a role could not start, in terms the user can act on.

/** A start-up failure the user can fix, in one line: the command line prints it without a stack. */
export class StartError extends Error {}

// Why a server could not listen, and which of its settings to change.
const LISTEN_FAILURES: Record<string, { problem: string; setting: 'port' | 'host' }> = {
  EADDRINUSE: { problem: 'address already in use', setting: 'port' },
  EACCES: { problem: 'permission denied', setting: 'port' },
  EADDRNOTAVAIL: { problem: 'address not available on this machine', setting: 'host' },
  ENOTFOUND: { problem: 'no such host', setting: 'host' },
  EAI_AGAIN: { problem: 'host name lookup failed', setting: 'host' },
};

/** The error `listen` threw, as a StartError naming the variable to set; unknown errors pass through. */
export function listenFailure(err: unknown, host: string, port: number, variables: { port: string; host?: string }): unknown {
  const known = LISTEN_FAILURES[(err as NodeJS.ErrnoException | undefined)?.code ?? ''];
  if (!known) return err;
  const variable = variables[known.setting];
  const where = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new StartError(`cannot listen on ${where}: ${known.problem}${variable ? ` (set ${variable})` : ''}`);
}
