// The project's lint rules fire on a probe and stay quiet on an allowed import. The custom rules run in
// RuleTester; the last block lints with the real eslint.config.js, so a rule switched off there fails too.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaries } from './boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = path.resolve(import.meta.dirname, '..');
const at = (rel: string) => path.join(root, rel);
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
});

type Case = [file: string, code: string];
/** Test cases from [file, code] pairs; invalid ones expect one error matching `message`. */
const valid = (cases: Case[]) => cases.map(([file, code]) => ({ filename: at(file), code }));
const invalid = (message: RegExp, cases: Case[]) =>
  cases.map(([file, code]) => ({ filename: at(file), code, errors: [{ message }] }));

const SERVICE = 'src/server/modules/users/users.service.ts';
const ROUTES = 'src/server/modules/users/users.routes.ts';

tester.run('data-access', boundaries.rules['data-access']!, {
  valid: valid([
    [
      'src/server/modules/users/users.repository.ts',
      "import { eq } from 'drizzle-orm'; import { users } from '../../db/schema';",
    ],
    [
      'src/server/jobs/queue.repository.ts',
      "import { sql } from 'drizzle-orm'; import { generations } from '../db/schema/generations';",
    ],
    ['src/server/db/client.ts', "import { drizzle } from 'drizzle-orm/pglite'; import * as schema from './schema';"],
    [SERVICE, "import type { UserRow } from '../../db/schema';"],
    [SERVICE, "import { type UserRow } from '../../db/schema';"],
    ['src/server/http/guards.ts', "export type { UserRow } from '../db/schema';"],
    [
      'src/server/modules/users/users.routes.test.ts',
      "import { eq } from 'drizzle-orm'; import { users } from '../../db/schema';",
    ],
  ]),
  invalid: [
    ...invalid(/may import 'drizzle-orm/, [
      [SERVICE, "import { eq } from 'drizzle-orm';"],
      [SERVICE, "import type { SQL } from 'drizzle-orm';"],
      ['src/server/jobs/worker.ts', "import { pgTable } from 'drizzle-orm/pg-core';"],
    ]),
    ...invalid(/values \(tables\) from the schema/, [
      [SERVICE, "import { users } from '../../db/schema';"],
      [SERVICE, "import { users, type UserRow } from '../../db/schema/users';"],
      ['src/server/app.ts', "export * from './db/schema';"],
      ['src/server/cli/admin.ts', "const schema = await import('../db/schema');"],
    ]),
  ],
});

tester.run('routes-use-services', boundaries.rules['routes-use-services']!, {
  valid: valid([
    [ROUTES, "import { getUser } from './users.service';"],
    [SERVICE, "import { findUser } from './users.repository';"],
    ['src/server/modules/users/users.routes.test.ts', "import { findUser } from './users.repository';"],
  ]),
  invalid: invalid(/Route files never import repositories/, [
    [ROUTES, "import { findUser } from './users.repository';"],
    [ROUTES, "import { findUser } from '../auth/auth.repository.ts';"],
  ]),
});

tester.run('module-services', boundaries.rules['module-services']!, {
  valid: valid([
    [SERVICE, "import { chargeCredits } from '../credits/credits.service';"],
    [SERVICE, "import { fulfil } from '../money/stripe/fulfilment.service';"],
    [SERVICE, "import { hashPassword } from './password';"],
    ['src/server/jobs/worker.ts', "import { claimNext } from '../modules/generations/generations.service';"],
    [
      'src/server/app.ts',
      "import { authHooks } from './modules/auth/auth.hooks'; import { usersRoutes } from './modules/users/users.routes';",
    ],
    ['src/server/jobs/worker.test.ts', "import { charge } from '../modules/generations/generation-billing';"],
  ]),
  invalid: [
    ...invalid(/Module 'users' may import module 'auth' only through its \*\.service\.ts files/, [
      [SERVICE, "import { findSession } from '../auth/auth.repository';"],
      [SERVICE, "import { hashPassword } from '../auth/password';"],
      [ROUTES, "import { requireSession } from '../auth/auth.hooks';"],
    ]),
    ...invalid(/src\/server\/jobs\/worker may import module 'generations' only through/, [
      ['src/server/jobs/worker.ts', "import { charge } from '../modules/generations/generation-billing';"],
    ]),
    ...invalid(/src\/server\/main may import module 'users' only through/, [
      ['src/server/main.ts', "import { usersRoutes } from './modules/users/users.routes';"],
    ]),
    ...invalid(/src\/server\/app may import module 'payments' only through/, [
      ['src/server/app.ts', "import { createGateway } from './modules/payments/stripe-gateway';"],
    ]),
  ],
});

tester.run('server-layers', boundaries.rules['server-layers']!, {
  valid: valid([
    [
      'src/server/jobs/worker.ts',
      "import { runGeneration } from './run-generation'; import { AppError } from '../lib/app-error';",
    ],
    [
      'src/server/engines/veo-engine.ts',
      "import { fetchWithRetry } from './provider-http'; import type { Config } from '../config';",
    ],
    [
      'src/server/lib/app-error.ts',
      "import { other } from './other'; import type { ErrorBody } from '../../shared/errors';",
    ],
    ['src/server/http/guards.ts', "import { getUser } from '../modules/users/users.service';"],
    ['src/server/jobs/run-generation.ts', "import { charge } from '../modules/generations/generations.service';"],
    ['src/server/storage/storage.test.ts', "import { serveObject } from '../http/serve-object';"],
    [
      'src/server/bus/publish.ts',
      "import type { Executor } from '../db/client'; import * as repo from './live-events.repository';",
    ],
    ['src/server/modules/money/ledger.service.ts', "import { publishBalanceChange } from '../../bus/publish';"],
  ]),
  invalid: [
    ...invalid(/src\/server\/(jobs|engines|storage|ai|media|stripe|bus|db) never imports src\/server\/http/, [
      ['src/server/jobs/run-generation.ts', "import { mediaLinks } from '../http/media-links';"],
      ['src/server/engines/index.ts', "import { requireUser } from '../http/guards';"],
      ['src/server/storage/s3-storage.ts', "export { serveObject } from '../http/serve-object';"],
      ['src/server/ai/gemini-text.ts', "import type { ErrorBody } from '../http/error-handler';"],
      ['src/server/db/client.ts', "const http = await import('../http/security');"],
      ['src/server/media/ffmpeg.ts', "import { notFound } from '../http/client-files';"],
      ['src/server/stripe/stripe-client.ts', "import { requireUser } from '../http/guards';"],
      ['src/server/bus/publish.ts', "import { requireUser } from '../http/guards';"],
    ]),
    ...invalid(/src\/server\/lib imports nothing else of the server's/, [
      ['src/server/lib/app-error.ts', "import { loadConfig } from '../config';"],
      ['src/server/lib/app-error.ts', "import { requireUser } from '../http/guards';"],
    ]),
    ...invalid(/src\/server\/(engines|storage|ai|media|stripe|bus|db) never imports src\/server\/(modules|jobs)/, [
      ['src/server/engines/index.ts', "import { getUser } from '../modules/users/users.service';"],
      ['src/server/storage/index.ts', "import { sweep } from '../jobs/retention-sweeper';"],
      ['src/server/ai/prompt-enhancer.ts', "import type { Credits } from '../modules/credits/credits.service';"],
      ['src/server/db/client.ts', "import { claim } from '../jobs/queue.repository';"],
      ['src/server/media/ffmpeg.ts', "import { runGeneration } from '../jobs/run-generation';"],
      ['src/server/stripe/stripe-client.ts', "import { fulfil } from '../modules/money/stripe/fulfilment.service';"],
      ['src/server/bus/subscribe.ts', "import { presentRecords } from '../modules/generations/generations.service';"],
      ['src/server/bus/publish.ts', "import { sweepExpired } from '../jobs/retention-sweeper';"],
    ]),
  ],
});

tester.run('workflow-callers', boundaries.rules['workflow-callers']!, {
  valid: valid([
    ['src/server/modules/admin/admin.routes.ts', "import { deleteAccount } from '../../workflows/delete-account';"],
    ['src/server/jobs/worker.ts', "import { deleteAccount } from '../workflows/delete-account';"],
    ['src/server/cli/admin.ts', "import { deleteAccount } from '../workflows/delete-account';"],
    ['src/server/app.ts', "import { deleteAccount } from './workflows/delete-account';"],
    ['src/server/workflows/delete-account.ts', "import { other } from './other-workflow';"],
    ['src/server/workflows/delete-account.ts', "import { deleteUserRecord } from '../modules/admin/admin.service';"],
    [
      'src/server/modules/admin/admin.service.test.ts',
      "import { deleteAccount } from '../../workflows/delete-account';",
    ],
  ]),
  invalid: [
    ...invalid(/only routes, jobs\/, cli\/ and app.ts start one/, [
      [SERVICE, "import { deleteAccount } from '../../workflows/delete-account';"],
      ['src/server/modules/users/users.repository.ts', "import type { X } from '../../workflows/delete-account';"],
      ['src/server/engines/index.ts', "import { deleteAccount } from '../workflows/delete-account';"],
      ['src/server/http/guards.ts', "import { deleteAccount } from '../workflows/delete-account';"],
    ]),
  ],
});

// A workflow reaches modules through their services, and stays below HTTP, like jobs/.
tester.run('module-services (workflows)', boundaries.rules['module-services']!, {
  valid: [],
  invalid: invalid(/src\/server\/workflows\/delete-account may import module 'admin' only through/, [
    ['src/server/workflows/delete-account.ts', "import { deleteUser } from '../modules/admin/admin.repository';"],
  ]),
});
tester.run('server-layers (workflows)', boundaries.rules['server-layers']!, {
  valid: [],
  invalid: invalid(/src\/server\/workflows never imports src\/server\/http/, [
    ['src/server/workflows/delete-account.ts', "import { requireUser } from '../http/guards';"],
  ]),
});

// Module-level cycles are checked against the modules on disk: the probes rely on real one-way imports
// (generations pays through money, users pays welcome credits through money, auth finds users in users).
const MODULE_FILES = fs
  .readdirSync(at('src/server/modules'), { recursive: true, encoding: 'utf8' })
  .map((name) => `src/server/modules/${name.split(path.sep).join('/')}`)
  .filter((rel) => /\.ts$/.test(rel) && !rel.endsWith('.test.ts'));

tester.run('module-cycles', boundaries.rules['module-cycles']!, {
  valid: [
    // Every module file as it is: the real module graph has no cycle.
    ...valid(MODULE_FILES.map((rel): Case => [rel, fs.readFileSync(at(rel), 'utf8')])),
    ...valid([
      [
        'src/server/modules/generations/generations.service.ts',
        "import { payForGeneration } from '../money/charge-generation.service';",
      ],
      [
        'src/server/modules/admin/admin.service.ts',
        "import { deleteUserOutputs } from '../generations/generations.service';",
      ],
      [
        'src/server/modules/money/ledger.service.ts',
        "import { publishBalanceChange } from '../../bus/publish'; import { AppError } from '../../lib/app-error';",
      ],
      ['src/server/jobs/worker.ts', "import { claimNext } from '../modules/generations/generations.service';"],
      // Tests may set up one module with another's services.
      [
        'src/server/modules/money/credits.routes.test.ts',
        "import { createGeneration } from '../generations/generations.service';",
      ],
    ]),
  ],
  invalid: [
    // Two modules importing each other's services through different files: no file cycle, one module cycle.
    ...invalid(
      /in a cycle: money -> users -> money \(users -> money in src\/server\/modules\/users\/users\.service\.ts\)/,
      [
        [
          'src/server/modules/money/stripe/checkout.service.ts',
          "import { findUserById } from '../../users/users.service';",
        ],
      ],
    ),
    ...invalid(
      /in a cycle: money -> generations -> money \(generations -> money in src\/server\/modules\/generations\/[\w.-]+\.ts\)/,
      [
        [
          'src/server/modules/money/credits.routes.ts',
          "import { modelPriceFor } from '../generations/generations.service';",
        ],
        // A type names the other module as much as a call does.
        [
          'src/server/modules/money/receipts.service.ts',
          "import type { GenerationView } from '../generations/generations.service';",
        ],
        [
          'src/server/modules/money/ledger.service.ts',
          "const generations = await import('../generations/generations.service');",
        ],
      ],
    ),
    // Longer cycles name every module on the way.
    ...invalid(
      /in a cycle: money -> auth -> users -> money \(auth -> users in src\/server\/modules\/auth\/[\w.-]+\.ts, users -> money in /,
      [['src/server/modules/money/ledger.service.ts', "import { createSession } from '../auth/auth.service';"]],
    ),
  ],
});

tester.run('declared-dependencies', boundaries.rules['declared-dependencies']!, {
  valid: valid([
    [SERVICE, "import { z } from 'zod'; import fs from 'node:fs'; import { eq } from 'drizzle-orm/pg-core';"],
    [SERVICE, "import type { BusboyConfig } from 'busboy'; import type { Mock } from 'vitest';"],
    [SERVICE, "import type { Pool } from 'pg'; import path from 'path';"],
    ['src/server/modules/users/users.routes.test.ts', "import { describe } from 'vitest';"],
    ['src/client/app/testing/render-app.tsx', "import { render } from '@testing-library/react';"],
    ['e2e/auth.spec.ts', "import { chromium } from 'playwright-core';"],
    ['scripts/build-server.mjs', "import { build } from 'esbuild';"],
  ]),
  invalid: [
    // dicer is installed (s3rver's old busboy needs it) but declared nowhere: it resolves here, and not in a production install.
    ...invalid(/'dicer' must be listed in package.json dependencies: it is not declared/, [
      ['src/server/modules/uploads/uploads.routes.ts', "import Dicer from 'dicer';"],
    ]),
    ...invalid(/'vitest' must be listed in package.json dependencies: it is only a devDependency/, [
      [SERVICE, "import { vi } from 'vitest';"],
      ['src/client/lib/api.ts', "const { vi } = await import('vitest');"],
      ['src/shared/errors.ts', "export { vi } from 'vitest';"],
    ]),
    ...invalid(/'left-pad' must be listed in package.json dependencies or devDependencies/, [
      ['e2e/auth.spec.ts', "import leftPad from 'left-pad';"],
      ['src/server/app.test.ts', "import leftPad from 'left-pad/index.js';"],
    ]),
    ...invalid(/'@acme\/widgets' is not declared in package.json \(nor '@types\/acme__widgets'\)/, [
      [SERVICE, "import type { Widget } from '@acme/widgets';"],
    ]),
  ],
});

// Each probe lints with the project's whole configuration; the first loads it and its plugins (seconds
// on a busy machine), so the ceiling is a minute rather than the default five seconds.
describe('the real eslint.config.js', { timeout: 60_000 }, () => {
  // Only the architecture rules, without type information: fast, and still the project's own configuration.
  const eslint = new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => ruleId.startsWith('boundaries/') || ruleId.startsWith('import-x/'),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const lint = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: at(file) });
    return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
  };

  it.each([
    ['boundaries/import-direction', 'src/shared/errors.ts', "import { x } from '../server/config';"],
    ['boundaries/data-access', SERVICE, "import { users } from '../../db/schema';"],
    ['boundaries/routes-use-services', ROUTES, "import { findUser } from './users.repository';"],
    // auth already depends on users, so this probe breaks no other rule (users reaching into auth would close a cycle).
    [
      'boundaries/module-services',
      'src/server/modules/auth/auth.service.ts',
      "import { findUserById } from '../users/users.repository';",
    ],
    ['boundaries/server-layers', 'src/server/jobs/worker.ts', "import { requireUser } from '../http/guards';"],
    // No module the workflow reaches depends on metrics, so this probe closes no file cycle.
    [
      'boundaries/workflow-callers',
      'src/server/modules/metrics/metrics.service.ts',
      "import { deleteAccount } from '../../workflows/delete-account';",
    ],
    [
      'boundaries/module-cycles',
      'src/server/modules/money/credits.routes.ts',
      "import { modelPriceFor } from '../generations/generations.service';",
    ],
    ['boundaries/declared-dependencies', 'src/server/modules/uploads/uploads.routes.ts', "import Dicer from 'dicer';"],
  ])('switches on %s', async (ruleId, file, code) => {
    expect(await lint(file, `${code}\n`)).toEqual([expect.stringMatching(new RegExp(`^${ruleId}: `))]);
  });

  it('lets tests use devDependencies and reach into modules', async () => {
    const code = "import { describe } from 'vitest';\nimport { findUser } from './users.repository';\n";
    expect(await lint('src/server/modules/users/users.routes.test.ts', code)).toEqual([]);
  });

  it('sees a cycle of modules that no file cycle shows', async () => {
    // users.service.ts pays welcome credits through money's ledger; a Stripe service looking users up in
    // users.service.ts would close a cycle of folders, through files that never import each other.
    const checkout = 'src/server/modules/money/stripe/checkout.service.ts';
    const text = fs.readFileSync(at(checkout), 'utf8');
    expect(await lint(checkout, text)).toEqual([]);
    expect(await lint(checkout, `${text}\nimport '../../users/users.service';\n`)).toEqual([
      expect.stringMatching(
        /^boundaries\/module-cycles: Modules import each other in a cycle: money -> users -> money /,
      ),
    ]);
  }, 20_000);

  describe('import-x/no-cycle', () => {
    // A real pair of files: the error handler imports AppError, so AppError importing it back closes a cycle.
    const appError = 'src/server/lib/app-error.ts';
    const handler = 'src/server/http/error-handler.ts';
    const text = fs.readFileSync(at(appError), 'utf8');
    // The probes below also break other rules (lib/ imports nothing else of the server's): only cycles count here.
    const cycles = async (file: string, code: string) =>
      (await lint(file, code)).filter((m) => m.startsWith('import-x/'));

    it('fires on an import that closes a cycle, directly or through other files', async () => {
      expect(fs.readFileSync(at(handler), 'utf8')).toContain("from '../lib/app-error'");
      const cycle = (source: string) => cycles(appError, `${text}\nimport '${source}';\n`);
      expect(await cycle('../http/error-handler')).toEqual(['import-x/no-cycle: Dependency cycle detected']);
      // main.ts → app.ts → lib/app-error.ts
      expect(await cycle('../main')).toEqual([expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)]);
    }, 20_000);

    it('stays quiet on the file as it is, on an import that does not come back, and on type-only imports', async () => {
      expect(await cycles(appError, text)).toEqual([]);
      expect(await cycles(appError, `${text}\nimport '../../shared/errors';\n`)).toEqual([]);
      // Erased from the JavaScript, a type-only import cannot make a module run before the ones it needs.
      expect(
        await cycles(appError, `${text}\nimport type { registerErrorHandler } from '../http/error-handler';\n`),
      ).toEqual([]);
    }, 20_000);
  });
});
