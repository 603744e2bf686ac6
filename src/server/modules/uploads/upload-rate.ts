import type { IncomingMessage } from 'node:http';
import { MIN_UPLOAD_BYTES_PER_WINDOW, UPLOAD_RATE_WINDOW_SECONDS } from '../../../shared/uploads';
import { AppError } from '../../lib/app-error';

export const uploadTooSlow = () =>
  new AppError(
    408,
    'upload_too_slow',
    'The upload was too slow, so it was stopped. Check your connection, then try again.',
  );

export interface UploadRateWatch {
  /** Aborted with uploadTooSlow() when the client sends too little. */
  signal: AbortSignal;
  stop(): void;
}

/**
 * Watches the bytes arriving on a request's connection: fewer than `minBytes` in any window
 * (tumbling, from the start of the body) aborts the signal. Stops by itself when the body has
 * arrived. Counts the socket's bytes, so nothing is read from the request itself; a request with
 * no real socket (app.inject) is not watched.
 */
export function watchUploadRate(
  request: IncomingMessage,
  limits = { windowMs: UPLOAD_RATE_WINDOW_SECONDS * 1000, minBytes: MIN_UPLOAD_BYTES_PER_WINDOW },
): UploadRateWatch {
  const controller = new AbortController();
  const socket = request.socket as { bytesRead?: unknown } | null | undefined;
  const bytesRead = () => (typeof socket?.bytesRead === 'number' ? socket.bytesRead : null);
  let last = bytesRead();
  if (last === null || request.complete) return { signal: controller.signal, stop: () => undefined };
  const timer = setInterval(() => {
    const now = bytesRead() ?? 0;
    if (now - (last ?? 0) < limits.minBytes) {
      stop();
      controller.abort(uploadTooSlow());
    }
    last = now;
  }, limits.windowMs);
  const stop = () => {
    clearInterval(timer);
    request.off('end', stop);
    request.off('close', stop);
  };
  request.once('end', stop);
  request.once('close', stop);
  return { signal: controller.signal, stop };
}
