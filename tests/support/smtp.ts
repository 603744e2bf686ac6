import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpServer {
  /** SMTP_URL for the app under test. */
  url: string;
  messages: ParsedMail[];
  /** The next message to arrive (or one already waiting), within `timeoutMs`. */
  nextMessage(timeoutMs?: number): Promise<ParsedMail>;
  /** Holds every message this long before accepting it (a slow mail server). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on 127.0.0.1 that keeps what it receives, parsed by mailparser. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  let taken = 0;
  let delayMs = 0;
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          messages.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async nextMessage(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length <= taken) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      const message = messages[taken];
      taken += 1;
      if (!message) throw new Error('no message');
      return message;
    },
    setDelay: (ms) => void (delayMs = ms),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
