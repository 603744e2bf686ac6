/**
 * The promise's answer, or a rejection as soon as the signal fires (with `stopped(signal.reason)`):
 * work that does not notice its signal (a call that never answers) cannot hold its caller.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  stopped: (reason: unknown) => Error,
): Promise<T> {
  work.catch(() => undefined); // a late failure is no longer anyone's
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stopped(signal.reason));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
