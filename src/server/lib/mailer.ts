export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
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
