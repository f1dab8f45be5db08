import { createTransport } from "nodemailer";
import { getEnv } from "./env.server";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Defaults to MAIL_FROM. */
  from?: string | { name: string; address: string };
  /** Files to attach; with a `cid`, an HTML body can show it inline (`<img src="cid:…">`). */
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
};

type Transport = ReturnType<typeof createTransport>;
let cached: { url: string; transport: Transport } | undefined;

// A dead or unreachable SMTP server must fail within seconds: the visitor is waiting for the
// success screen, and the request is already stored and retried later anyway.
const TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 };

/** E-mail goes out only when SMTP_URL is set (smtp:// or smtps://, options as URL query). */
export function isMailConfigured(): boolean {
  return Boolean(getEnv().SMTP_URL);
}

/**
 * One pooled transport per SMTP_URL (decision 109): up to OUTBOX_CONCURRENCY connections, each
 * reused for up to 100 messages, so a month's invoices do not pay a TCP and TLS handshake and a
 * greeting per message. An idle connection closes after socketTimeout.
 */
function transport(): Transport {
  const env = getEnv();
  const url = env.SMTP_URL;
  if (!url) throw new Error("SMTP_URL is not set");
  if (cached?.url !== url) {
    cached?.transport.close();
    cached = {
      url,
      transport: createTransport({
        url,
        pool: true,
        maxConnections: env.OUTBOX_CONCURRENCY,
        maxMessages: 100,
        ...TIMEOUTS,
      }),
    };
  }
  return cached.transport;
}

/** Closes the pool's connections (a script that sent mail, before it exits). */
export function closeMailTransport() {
  cached?.transport.close();
  cached = undefined;
}

/** Sends one message; rejects with the SMTP error when the server refuses or cannot be reached. */
export async function sendMail(mail: OutgoingMail): Promise<{ messageId: string }> {
  const from = mail.from ?? getEnv().MAIL_FROM;
  if (!from) throw new Error("MAIL_FROM is not set and no sender was given");
  const info = await transport().sendMail({
    from,
    to: mail.to,
    replyTo: mail.replyTo,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments,
  });
  return { messageId: info.messageId };
}
