import { mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { EngineContext, EngineJob } from '../../src/server/engines/engine';
import { AppError } from '../../src/server/lib/app-error';

/** One request a fake provider received. */
export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
export interface Reply {
  status: number;
  json?: unknown;
  bytes?: Buffer;
  location?: string;
}

/** A local HTTP server that answers in a provider's wire format through a swappable route function. */
export interface FakeServer {
  baseUrl: string;
  /** What this server received; each test has its own, so a late request of the previous one cannot leak in. */
  received: Recorded[];
  route: (request: Recorded) => Reply;
  server: Server;
  close(): Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  const server = createServer();
  const state: FakeServer = {
    baseUrl: '',
    received: [],
    route: () => ({ status: 404 }),
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      state.received.push(request);
      const reply = state.route(request);
      const headers: Record<string, string> = reply.location ? { location: reply.location } : {};
      if (reply.json !== undefined) headers['content-type'] = 'application/json';
      res.writeHead(reply.status, headers);
      res.end(reply.bytes ?? (reply.json === undefined ? '' : JSON.stringify(reply.json)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export function createEngineJob(overrides: Partial<EngineJob> = {}): EngineJob {
  return {
    id: 'job-1',
    prompt: 'a cat surfing at sunset',
    duration: 8,
    hasAudio: true,
    isEconomy: false,
    settings: {},
    inputs: {},
    providerTaskId: null,
    ...overrides,
  };
}

const workDirs: string[] = [];

/** A context that records progress and saved task ids, with its own work folder. */
export function createEngineContext(controller = new AbortController()) {
  const workDir = mkdtempSync(path.join(tmpdir(), 'engine-test-'));
  workDirs.push(workDir);
  const progress: { progress: number; stage: string }[] = [];
  const saved: string[] = [];
  const context: EngineContext = {
    workDir,
    signal: controller.signal,
    reportProgress: (value, stage) => progress.push({ progress: value, stage }),
    saveProviderTask: async (taskId) => {
      saved.push(taskId);
    },
  };
  return { context, progress, saved, controller };
}

export function removeEngineWorkDirs(): void {
  for (const dir of workDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The error a promise rejects with (or an Error saying it did not). */
export const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('expected a failure'),
    (error: unknown) => error,
  );

/** The AppError a promise rejects with, as plain fields; fails when it is not one or its message holds `secret`. */
export async function appErrorOf(promise: Promise<unknown>, secret: string) {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.message).not.toContain(secret);
  return { status: appError.status, code: appError.code, message: appError.message, headers: appError.headers };
}
