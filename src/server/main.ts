import pino from 'pino';
import { closeDetector, warmUpDetector } from './ai/object-detector';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createServiceContext } from './context';
import { databaseOptionsFor, openDatabase } from './db/client';
import { LOG_REDACT_PATHS, serializeError } from './http/error-handler';
import { oldFfmpegWarning } from './media/ffmpeg';
import { type EngineRegistry, unreachableInputsWarning } from './engines';
import { startWorker, type Worker } from './jobs/worker';
import { followInstallationSettings } from './modules/settings/settings.service';
import { startRetentionSweeper } from './jobs/retention-sweeper';
import { settleNotifications } from './modules/notifications/notifications.service';

type Service = 'web' | 'worker';

/** `--services=web,worker` (the default runs both in one process). */
function parseServices(argv: readonly string[]): Set<Service> {
  const flag = argv.find((a) => a.startsWith('--services='));
  const names = (flag ? flag.slice('--services='.length) : 'web,worker')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const services = new Set<Service>();
  for (const name of names) {
    if (name !== 'web' && name !== 'worker')
      throw new ConfigError([`--services: unknown service '${name}' (use web, worker or both)`]);
    services.add(name);
  }
  if (services.size === 0) throw new ConfigError(['--services: name at least one of web, worker']);
  return services;
}

/** The oldest Node.js this server runs on (decision 008); npm scripts bring it on Linux x64. */
const MIN_NODE_MAJOR = 24;

/** Refuses to start on an older Node.js, with what to do instead; false when it refused. */
function isSupportedNode(version: string): boolean {
  if (Number(version.split('.')[0]) >= MIN_NODE_MAJOR) return true;
  process.stderr.write(
    `Reelsmith needs Node.js ${MIN_NODE_MAJOR} or newer (this is ${version}). Start it through npm (npm start, npm run serve, npm run worker), which uses the Node.js installed with it on Linux x64, or install Node.js ${MIN_NODE_MAJOR}.\n`,
  );
  return false;
}

/** A second graceful step is never allowed to hang the process past this. */
const SHUTDOWN_LIMIT_MS = 30_000;

/** The only file that listens: parses config, migrates, serves and works, and closes cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  // Where start-up time goes (logged once ready; `npm run bench:cold-start` prints it).
  const phasesMs: Record<string, number> = { imports: Math.round(performance.now()) };
  let mark = performance.now();
  const phase = (name: string) => {
    phasesMs[name] = Math.round(performance.now() - mark);
    mark = performance.now();
  };
  const services = parseServices(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(databaseOptionsFor(config));
  phase('openDatabase');
  await database.migrate();
  phase('migrate');
  const ctx = createServiceContext(config, database);
  phase('serviceContext');
  const app = services.has('web') ? await buildApp(ctx) : null;
  phase('buildApp');
  const log =
    app?.log ?? pino({ level: config.logLevel, redact: LOG_REDACT_PATHS, serializers: { err: serializeError } });
  // The web app follows the settings saved in the browser itself (app.ts); a worker-only process here.
  const stopSettings = app ? null : await followInstallationSettings(ctx, log);
  // Once per process, whichever services it runs: both decode untrusted files with FFmpeg.
  const oldFfmpeg = oldFfmpegWarning(ctx.media);
  if (oldFfmpeg) log.warn(oldFfmpeg);
  const unreachable = unreachableInputsWarning(ctx.config);
  if (unreachable) log.warn(unreachable);
  const sweeper = startRetentionSweeper(ctx, log);
  const worker: Worker | null = services.has('worker') ? startWorker(ctx, { config: config.worker, log }) : null;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS);
    force.unref();
    clearInterval(sweeper);
    // Stop taking work first: the worker finishes or hands back its job while the API drains
    // (then the object detector's thread stops, its last analysis answered).
    // Notifications of jobs that just ended are sent before the database closes (each push gives up after 10 s).
    Promise.all([worker?.stop(config.worker.shutdownGraceSeconds * 1000), app?.close().then(closeDetector)])
      .then(() => settleNotifications(ctx))
      .then(() => stopSettings?.())
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  if (app) {
    // The image analysis's model loads in the background, off every request's path.
    warmUpDetector();
    await app.listen({ port: config.port, host: config.host });
    phase('listen');
    log.info({ phasesMs }, 'startup phases');
    log.info(
      { database: database.kind, dataDir: config.dataDir, engines: describeEngines(ctx.engines) },
      `Reelsmith is ready at ${config.publicUrl}`,
    );
  } else {
    log.info({ database: database.kind, engines: describeEngines(ctx.engines) }, 'Reelsmith worker is running');
  }
}

function describeEngines(engines: EngineRegistry): string {
  return engines
    .list()
    .filter((m) => m.available)
    .map((m) => m.id)
    .join(', ');
}

if (!isSupportedNode(process.versions.node)) process.exit(1);

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Reelsmith failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
