import { Worker } from 'node:worker_threads';
import type { ManifestPlan, ManifestStoreJson } from './c2pa-engine';
import type { SigningIdentityPem } from './identity';

export type { ManifestPlan, ManifestStoreJson } from './c2pa-engine';

/**
 * Content Credentials, signed and read in one worker thread per process (c2pa.worker.ts runs
 * c2pa-engine.ts): c2pa-rs reads and hashes a file synchronously, which here never holds the event
 * loop that answers requests and renews job leases.
 */
type C2paCall =
  | { op: 'sign'; input: string; output: string; plan: ManifestPlan; identity: SigningIdentityPem }
  | { op: 'read'; source: { file: string } | { bytes: Uint8Array }; format: string; trustAnchorsPem?: string };
export type C2paRequest = { id: number } & C2paCall;
export type C2paAnswer = { id: number } & ({ ok: true; result: unknown } | { ok: false; error: string });

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (answer: C2paAnswer) => void>();

/**
 * The bundle has the worker built beside it (dist/server/c2pa.worker.js). Under tsx and vitest it is
 * the TypeScript source, loaded by a short script that registers tsx in the thread first (as the
 * object detector's worker is, src/server/ai/object-detector.ts).
 */
function newWorker(): Worker {
  if (import.meta.url.endsWith('.js'))
    return new Worker(new URL('./c2pa.worker.js', import.meta.url), { name: 'c2pa' });
  const source = {
    tsx: import.meta.resolve('tsx/esm/api'),
    worker: new URL('./c2pa.worker.ts', import.meta.url).href,
  };
  const bootstrap = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ register }) => { register(); return import(workerData.worker); });`;
  return new Worker(bootstrap, { eval: true, name: 'c2pa', workerData: source, execArgv: [] });
}

function ask(request: C2paCall): Promise<unknown> {
  if (!worker) {
    const started = newWorker();
    // It never keeps the process alive on its own: a process that is done exits.
    started.unref();
    const failAll = (why: string) => {
      if (worker === started) worker = null;
      for (const [id, answer] of waiting) answer({ id, ok: false, error: why });
      waiting.clear();
    };
    started.on('message', (answer: C2paAnswer) => {
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    });
    started.on('error', (error: Error) => failAll(`the Content Credentials worker failed: ${error.message}`));
    started.on('exit', (code) => failAll(`the Content Credentials worker stopped (${code})`));
    worker = started;
  }
  const id = nextId++;
  const running = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, (answer) => (answer.ok ? resolve(answer.result) : reject(new Error(answer.error))));
    running.postMessage({ ...request, id } satisfies C2paRequest);
  });
}

/** Signs `input` into `output` (an MP4) with the plan's manifest, as `identity`. */
export async function signVideo(
  input: string,
  output: string,
  plan: ManifestPlan,
  identity: SigningIdentityPem,
): Promise<void> {
  await ask({ op: 'sign', input, output, plan, identity });
}

/** Reads and validates the Content Credentials of a file (null: it carries none), trusting `trustAnchorsPem`. */
export async function readCredentials(
  source: { file: string } | { bytes: Uint8Array },
  format: string,
  trustAnchorsPem?: string,
): Promise<ManifestStoreJson | null> {
  return (await ask({
    op: 'read',
    source,
    format,
    ...(trustAnchorsPem ? { trustAnchorsPem } : {}),
  })) as ManifestStoreJson | null;
}
