import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhooksConfig } from '../../config-webhooks';
import { AppError } from '../../lib/app-error';
import { checkUrlShape, type Resolve, resolveTarget, systemResolve } from './address-policy';

// One POST of a signed webhook body. The host is resolved and checked here, and the socket connects
// to the address that was checked (a custom `lookup`), so DNS rebinding cannot swap in another one;
// TLS still verifies the certificate against the URL's name. Redirects are never followed blindly:
// 307 and 308 (which keep the method and body) are followed at most MAX_REDIRECTS times, each target
// checked like the first; any other 3xx is a failed attempt (the Standard Webhooks advice).

export const SEND_TIMEOUT_MS = 10_000;
/** The most of a response body read (then the connection is dropped): the answer's status is what counts. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_REDIRECTS = 3;

export interface SendResult {
  /** The final response status; null when no response came (refused, timeout, blocked address). */
  status: number | null;
  ok: boolean;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  config: WebhooksConfig;
  timeoutMs?: number;
  resolve?: Resolve;
}

/** POSTs `body` with `headers` to `url`, following the rules above; never throws. */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const deadline = Date.now() + (options.timeoutMs ?? SEND_TIMEOUT_MS);
  const finish = (status: number | null, error: string | null): SendResult => ({
    status,
    ok: status !== null && status >= 200 && status < 300,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let target = url;
  for (let hop = 0; ; hop += 1) {
    let response: { status: number; location: string | undefined };
    try {
      const checked = checkUrlShape(target, options.config);
      const address = await resolveTarget(checked, options.resolve ?? systemResolve);
      response = await postOnce(checked.url, address, headers, body, deadline);
    } catch (error) {
      const prefix = hop > 0 ? `Redirect to ${target}: ` : '';
      return finish(null, prefix + describe(error));
    }
    const { status, location } = response;
    if (status < 300 || status >= 400) return finish(status, status >= 200 && status < 300 ? null : `HTTP ${status}`);
    if ((status !== 307 && status !== 308) || !location)
      return finish(status, `Redirect (HTTP ${status}) not followed: update the webhook URL.`);
    if (hop >= MAX_REDIRECTS) return finish(status, `More than ${MAX_REDIRECTS} redirects.`);
    try {
      target = new URL(location, target).toString();
    } catch {
      return finish(status, 'The redirect location is not a valid URL.');
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') return 'Connection refused.';
    if (code === 'ETIMEDOUT' || error.message === 'timeout') return 'No answer within 10 seconds.';
    return code ? `${code}: ${error.message}` : error.message;
  }
  return 'Unknown error.';
}

function postOnce(
  url: URL,
  address: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  deadline: number,
): Promise<{ status: number; location: string | undefined }> {
  // Answers every lookup with the checked address (Node asks with `all: true` when it races families).
  const pinned: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
      },
      (response) => {
        let received = 0;
        const done = () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, location: response.headers.location });
        };
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          // Enough read: the status is known and the rest is not needed.
          if (received > MAX_RESPONSE_BYTES) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error('timeout')), remaining);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
