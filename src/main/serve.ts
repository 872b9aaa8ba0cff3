// `svc serve`: the REST API (and, as they arrive, the other roles) in one process.
import type { Config } from '../config/index.ts';
import { systemClock } from '../clock.ts';
import { buildApp } from '../http/app.ts';
import { ensureDefaultAccount } from '../services/api-keys.ts';
import { openDatabase } from './database.ts';

export async function serve(config: Config): Promise<void> {
  const say = (msg: string) => process.stderr.write(`svc: ${msg}\n`);
  const database = await openDatabase(config, say);
  const { account, newKey, bootstrapKeyCreated } = await ensureDefaultAccount(database.db, config.SVC_BOOTSTRAP_API_KEY);

  const app = await buildApp({
    db: database.db,
    clock: systemClock,
    publicUrl: config.SVC_PUBLIC_URL,
    trustProxy: config.SVC_TRUST_PROXY,
    logger: {
      level: config.SVC_LOG_LEVEL,
      // Fastify does not log headers by default; the redaction keeps it so if that changes.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
    },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    say(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = config.SVC_PUBLIC_URL ? new URL('/v2', config.SVC_PUBLIC_URL).href : `http://${shownHost}:${port}/v2`;

  const lines = [
    '',
    `svc is running. REST API: ${base}`,
    `  database: ${database.embedded ? `embedded PostgreSQL in ${config.SVC_DATA_DIR}` : 'DATABASE_URL'}`,
    `  default account: ${account.id}`,
  ];
  if (newKey) {
    lines.push(`  API key (shown once, keep it): ${newKey}`);
    lines.push(`  try: curl -H "Authorization: Token ${newKey}" ${base}/shipping_lines`);
  } else if (bootstrapKeyCreated) {
    lines.push('  the API key from SVC_BOOTSTRAP_API_KEY was added to the default account');
  } else {
    lines.push('  use your existing API key, or create one: npx svc keys create');
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}
