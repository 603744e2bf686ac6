import { parentPort } from 'node:worker_threads';
import { readCredentials, signVideo } from './c2pa-engine';
import type { C2paRequest, C2paAnswer } from './c2pa';

// The c2pa worker thread: one per process, started on the first signing or check (c2pa.ts).
parentPort?.on('message', (request: C2paRequest) => {
  const run =
    request.op === 'sign'
      ? signVideo(request.input, request.output, request.plan, request.identity).then(() => null)
      : readCredentials(request.source, request.format, request.trustAnchorsPem);
  run.then(
    (result) => parentPort?.postMessage({ id: request.id, ok: true, result } satisfies C2paAnswer),
    (error: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies C2paAnswer),
  );
});
