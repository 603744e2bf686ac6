import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local webhook receiver: an HTTP server on 127.0.0.1 that keeps every request's headers and raw
// body (verification needs the exact bytes, per the Standard Webhooks specification) and answers
// what the test says. Tests wait for requests with `next`, never with sleeps.

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  port: number;
  /** host:port, as WEBHOOK_ALLOWED_PRIVATE_HOSTS names it. */
  hostPort: string;
  url: (path?: string) => string;
  received: ReceivedWebhook[];
  /** Resolves with the first request (from now on, or already received and not yet taken) that matches. */
  next: (match?: (request: ReceivedWebhook) => boolean, timeoutMs?: number) => Promise<ReceivedWebhook>;
  /** How to answer a request (default 204). */
  respond: (handler: (request: ReceivedWebhook) => { status: number; headers?: Record<string, string> }) => void;
  close: () => Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const taken = new Set<ReceivedWebhook>();
  const waiters: { match: (r: ReceivedWebhook) => boolean; resolve: (r: ReceivedWebhook) => void }[] = [];
  let handler: (request: ReceivedWebhook) => { status: number; headers?: Record<string, string> } = () => ({
    status: 204,
  });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const answer = handler(entry);
      response.writeHead(answer.status, answer.headers).end();
      const waiter = waiters.find((w) => w.match(entry));
      if (waiter) {
        taken.add(entry);
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hostPort: `127.0.0.1:${port}`,
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    next: (match = () => true, timeoutMs = 20_000) => {
      const earlier = received.find((r) => !taken.has(r) && match(r));
      if (earlier) {
        taken.add(earlier);
        return Promise.resolve(earlier);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching webhook arrived in time')), timeoutMs);
        waiters.push({
          match,
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
        });
      });
    },
    respond: (next) => {
      handler = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
