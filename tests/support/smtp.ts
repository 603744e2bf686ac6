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

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps what it receives, parsed by mailparser.
 * With `login`, it asks for that user and password (AUTH PLAIN or LOGIN, over this plain test
 * connection) and refuses others with 535, as a mail provider's server does.
 */
export async function startTestSmtpServer(login?: { user: string; password: string }): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  let taken = 0;
  let delayMs = 0;
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: !login,
    allowInsecureAuth: Boolean(login),
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password)
        return callback(null, { user: auth.username });
      const refused = new Error('Invalid login: username and password not accepted') as Error & {
        responseCode: number;
      };
      refused.responseCode = 535;
      return callback(refused);
    },
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
