export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Asks the mail server whether it would take mail from us (nodemailer's verify: connect, EHLO, TLS
 * where asked, AUTH with the address's user and password), sending nothing. Within 10 seconds.
 */
export async function verifyMailServer(
  smtpUrl: string,
): Promise<{ ok: true } | { ok: false; refused: boolean; reason: string }> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 10_000,
  });
  try {
    await transport.verify();
    return { ok: true };
  } catch (error) {
    const failure = error as { code?: string; response?: string; message?: string };
    // EAUTH: the server refused the user or password; the rest is not reaching it.
    const refused = failure.code === 'EAUTH' || failure.code === 'ENOAUTH';
    const reason = (failure.response ?? failure.message ?? 'the connection failed').replace(/\s+/g, ' ').slice(0, 300);
    return { ok: false, refused, reason };
  } finally {
    transport.close();
  }
}

/** Sends one message through SMTP_URL, within a time limit at every step. */
export async function sendMail(mail: { smtpUrl: string; from: string }, message: OutgoingMail): Promise<void> {
  // Loaded on the first mail: a server without SMTP_URL never needs it, and none needs it to start.
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    url: mail.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({ from: mail.from, ...message });
  } finally {
    transport.close();
  }
}
