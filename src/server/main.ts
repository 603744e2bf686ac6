import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { databaseOptionsFor, openDatabase } from './db/client';
import { startRetentionSweeper } from './modules/uploads/retention-sweeper';
import { createStorage } from './storage';

/** The only file that listens: parses config, migrates, serves, and closes cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(databaseOptionsFor(config));
  await database.migrate();
  const storage = createStorage(config);
  const app = await buildApp({ config, database, storage });
  const sweeper = startRetentionSweeper({ db: database.db, storage, secret: config.sessionSecret, now: () => new Date() }, app.log);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    clearInterval(sweeper);
    app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.kind, dataDir: config.dataDir },
    `Reelsmith is ready at ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Reelsmith failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
