import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app';
import { type Config, loadConfig, readEnv } from '../../src/server/config';
import { createServiceContext, type ServiceContext, type ServiceOverrides } from '../../src/server/context';
import type { Db } from '../../src/server/db/client';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestApp {
  app: FastifyInstance;
  /** The service context the app was built on (workers and sweeps in tests share it). */
  ctx: ServiceContext;
  db: Db;
  config: Config;
  testDb: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

/** The real application on a fresh database, with quiet logs and its own data directory. */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  options: ServiceOverrides = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'reelsmith-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-123',
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    PUBLIC_URL: 'http://localhost:3000',
    // The server looks for the system's FFmpeg on PATH (preferred over the old bundled build), as in production.
    PATH: readEnv().PATH,
    ...env,
  });
  const testDb = await createTestDatabase();
  const ctx = createServiceContext(config, testDb.database, options);
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp(ctx);
    beforeReady?.(app);
    await app.ready();
  } catch (error) {
    // An app that cannot start leaves no database behind.
    await app?.close().catch(() => undefined);
    await testDb.drop();
    throw error;
  }
  return {
    app,
    ctx,
    db: testDb.database.db,
    config,
    testDb,
    dataDir,
    close: async () => {
      await app.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The session cookie a response set, as a Cookie header value. */
export function sessionCookieFrom(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'rs_session');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `rs_session=${cookie.value}`;
}

export function injectJson(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  url: string,
  options: { body?: unknown; cookie?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  const request: InjectOptions = {
    method,
    url,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  };
  return app.inject(request);
}

/** Starts the test app listening on a free local port; its base URL (`http://127.0.0.1:PORT`). */
export async function listenLocally(t: Pick<TestApp, 'app'>): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test app has no port');
  return `http://127.0.0.1:${address.port}`;
}
