import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What a listener is told: each payload, and that it reconnected (notifications in between may be lost). */
export interface NotificationHandlers {
  onPayload(payload: string): void;
  onReconnect(): void;
  onError(error: unknown): void;
}

/** Stops listening; resolves when the connection is closed. */
export type StopListening = () => Promise<void>;

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;
/** A connection that cannot be made in this long is given up and tried again. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * LISTEN on PostgreSQL through one dedicated connection (not a pool client: a pooled connection
 * goes back to the pool and its LISTEN with it). A lost connection is made again with backoff, and
 * `onReconnect` tells the caller that notifications may have been missed meanwhile.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
): Promise<StopListening> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let delay = RECONNECT_MIN_MS;

  const connect = async (isReconnect: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onPayload(message.payload);
    });
    next.on('error', (error) => {
      handlers.onError(error);
      lost(next);
    });
    next.on('end', () => lost(next));
    await next.connect();
    await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = RECONNECT_MIN_MS;
    if (isReconnect) handlers.onReconnect();
  };

  const retry = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect(true).catch((error: unknown) => {
        handlers.onError(error);
        delay = Math.min(RECONNECT_MAX_MS, delay * 2);
        retry();
      });
    }, delay);
    retryTimer.unref();
  };

  function lost(which: pg.Client) {
    if (client !== which && client !== null) return;
    client = null;
    which.removeAllListeners('notification');
    which.end().catch(() => undefined);
    retry();
  }

  await connect(false);
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const open = client;
    client = null;
    await open?.end().catch(() => undefined);
  };
}

/** LISTEN on PGlite: notifications of this process's own database, delivered in-process. */
export async function listenPglite(
  client: PGlite,
  channel: string,
  handlers: NotificationHandlers,
): Promise<StopListening> {
  const unlisten = await client.listen(channel, (payload) => handlers.onPayload(payload));
  return async () => {
    await unlisten().catch(() => undefined);
  };
}
