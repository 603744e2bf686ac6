import http from 'node:http';

/** One Server-Sent Event as a browser's EventSource would see it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Comment lines (heartbeats) received so far. */
  comments: number;
  /** The id an EventSource would send as Last-Event-ID on reconnect. */
  lastEventId(): string | null;
  /** Resolves with the first event (already received or coming) that matches; rejects after timeoutMs. */
  next(match: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A small EventSource over node:http, for tests: a real socket of its own, the wire format parsed as the spec says. */
export async function openSse(
  baseUrl: string,
  cookie: string,
  lastEventId?: string,
  extraHeaders: Record<string, string> = {},
): Promise<SseStream> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.get(
      `${baseUrl}/api/events`,
      {
        agent: false,
        headers: {
          cookie,
          accept: 'text/event-stream',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          ...extraHeaders,
        },
      },
      resolve,
    );
    request.on('error', reject);
  });
  const events: SseEvent[] = [];
  let lastId: string | null = lastEventId ?? null;
  const waiters = new Set<() => void>();
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
  const stream: SseStream = {
    status: response.statusCode ?? 0,
    headers,
    events,
    comments: 0,
    lastEventId: () => lastId,
    next: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < events.length; seen += 1) {
            const event = events[seen];
            if (event && match(event)) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(event);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((e) => e.event))}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    ended: new Promise((resolve) => response.socket.once('close', () => resolve())),
    close: () => response.destroy(),
  };
  let buffer = '';
  response.setEncoding('utf8');
  response.on('error', () => undefined);
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id: string | null = null;
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) stream.comments += 1;
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (id !== null) lastId = id;
      if (data.length > 0) {
        events.push({ id, event: name, data: JSON.parse(data.join('\n')) as unknown });
        for (const waiter of [...waiters]) waiter();
      }
    }
  });
  return stream;
}
