import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/** Where `npm test` finds PostgreSQL when DATABASE_URL is not set: this machine's, with trust auth. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

/** Whether a PostgreSQL answers there (one SELECT 1 through the pg driver, at most 5 seconds). */
function localPostgresAnswers(): boolean {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const c = new (require('pg').Client)({ connectionString: ${JSON.stringify(LOCAL_POSTGRES)}, connectionTimeoutMillis: 3000 });
       c.connect().then(() => c.query('SELECT 1')).then(() => process.exit(0), () => process.exit(1));`,
    ],
    { timeout: 5000, stdio: 'ignore' },
  );
  return probe.status === 0;
}

// The README's `npm test` is CI's command exactly: without DATABASE_URL it uses a local PostgreSQL
// when one answers (set here, before any test worker starts, so every worker sees it), else PGlite only.
/* eslint-disable no-restricted-properties -- test runner config, not app code */
if (!process.env.DATABASE_URL && localPostgresAnswers()) process.env.DATABASE_URL = LOCAL_POSTGRES;
/* eslint-enable no-restricted-properties */

// Every server test runs on PGlite, and again on PostgreSQL when DATABASE_URL is set (or found).
const serverLegs = [
  { name: 'server-pglite', env: { TEST_DB: 'pglite' } },
  // eslint-disable-next-line no-restricted-properties -- test runner config, not app code
  ...(process.env.DATABASE_URL ? [{ name: 'server-postgres', env: { TEST_DB: 'postgres' } }] : []),
];

// Server tests that never open a database (engines, media, AI and storage against their own
// stand-ins, config parsing): the PostgreSQL leg would run them again unchanged, so they run once.
const DATABASE_FREE = [
  'src/server/ai/**/*.test.ts',
  'src/server/config.test.ts',
  'src/server/config-accounts.test.ts',
  'src/server/config-provenance.test.ts',
  'src/server/engines/comfyui/templates.test.ts',
  'src/server/engines/fal-engine.test.ts',
  'src/server/engines/kling-engine.test.ts',
  'src/server/engines/local/**/*.test.ts',
  'src/server/engines/provider-cost.test.ts',
  'src/server/engines/veo-engine.test.ts',
  'src/server/media/**/*.test.ts',
  'src/server/moderation/**/*.test.ts',
  'src/server/modules/notifications/web-push.test.ts',
  'src/server/modules/outbound-webhooks/address-policy.test.ts',
  'src/server/storage/storage.test.ts',
];

// Renders through an engine's stand-in, whose subject is the engine's wire format, the render and the
// checks on what it made (Content Credentials, screening, the media check). Their database work is
// the same SQL every other test runs on both legs, and the queue's own behaviour on PostgreSQL
// (leases, SKIP LOCKED, LISTEN/NOTIFY across processes) is jobs/worker*.test.ts's: they run on PGlite
// once, which saves minutes of FFmpeg per run.
const ENGINE_PIPELINES = [
  'src/server/jobs/comfyui-pipeline.test.ts',
  'src/server/jobs/controls-pipeline.test.ts',
  'src/server/jobs/extend-kling-pipeline.test.ts',
  'src/server/jobs/extend-provider-pipeline.test.ts',
  'src/server/jobs/fal-pipeline.test.ts',
  'src/server/jobs/keyframes-pipeline.test.ts',
  'src/server/jobs/provider-pipeline.test.ts',
  'src/server/jobs/replicate-pipeline.test.ts',
  'src/server/modules/moderation/picture-screening.test.ts',
  'src/server/modules/provenance/content-credentials.test.ts',
  'src/server/modules/uploads/media-check.test.ts',
];

// Features whose subject is what FFmpeg makes from finished videos (an upscale, a sound bed, a lip-sync,
// a restyle, a film of takes and cards) or what reaches a provider's or a receiver's wire (characters,
// finishing tools, outbound webhooks after a render). Their database work is a generation's record and
// its one ledger row, the same SQL the generation, money and refund tests run on both legs; what they
// add is minutes of rendering, so, like the engine pipelines, they run on PGlite once.
const RENDER_FEATURES = [
  'src/server/jobs/character-providers.test.ts',
  'src/server/jobs/finish-providers.test.ts',
  'src/server/jobs/webhooks-pipeline.test.ts',
  'src/server/modules/generations/films.test.ts',
  'src/server/modules/generations/finish.test.ts',
  'src/server/modules/storyboards/storyboard-film.test.ts',
];

/**
 * The client's test files that replace modules (vi.mock and the like): they need modules of their
 * own, so they run isolated (project client-isolated); every other client file shares its worker's
 * modules with the files before it (isolate: false), so React, the router and the app are imported
 * once per worker instead of once per file. Read from the files themselves, so a new file that
 * mocks lands on the isolated side by itself. Measured alone, one worker: 142 -> 65 s, 152 -> 55
 * CPU-seconds (npm run test:client).
 */
const CLIENT_TESTS = readdirSync('src/client', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => path.join('src/client', file));
const CLIENT_MOCKING = CLIENT_TESTS.filter((file) =>
  /\bvi\.(mock|doMock|unmock|doUnmock|resetModules)\(/.test(readFileSync(file, 'utf8')),
);

const clientTest = {
  environment: 'jsdom' as const,
  // Each worker a thread rather than a child process: the files need no process of their own (no
  // child processes, signals or native servers), and a thread starts without a Node.js boot.
  pool: 'threads' as const,
  setupFiles: [
    'tests/setup/jsdom-polyfills.ts',
    'tests/setup/client-test-defaults.ts',
    'tests/setup/fail-on-console-error.ts',
  ],
  // Room for the 10-second waits of client-test-defaults.ts inside one test.
  testTimeout: 30_000,
};

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. The server tests
    // mostly wait on databases, child processes and sockets, so three run side by side.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'shared',
          include: ['src/shared/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
        },
      },
      ...serverLegs.map((leg) => ({
        test: {
          name: leg.name,
          include: ['src/server/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            ...(leg.name === 'server-postgres' ? [...DATABASE_FREE, ...ENGINE_PIPELINES, ...RENDER_FEATURES] : []),
          ],
          environment: 'node',
          env: leg.env,
          // A self-signed certificate for the HTTPS test servers, trusted through NODE_EXTRA_CA_CERTS.
          // One migrated database that each test file copies (tests/support/database.ts).
          globalSetup: ['tests/setup/test-tls.ts', 'tests/setup/template-database.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      })),
      {
        plugins: [react()],
        test: {
          ...clientTest,
          name: 'client',
          include: ['src/client/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...CLIENT_MOCKING],
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: { ...clientTest, name: 'client-isolated', include: CLIENT_MOCKING },
      },
      {
        // The project's own lint rules (eslint/), on probes and on real files of src/.
        test: {
          name: 'lint',
          include: ['eslint/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
        },
      },
    ],
  },
});
