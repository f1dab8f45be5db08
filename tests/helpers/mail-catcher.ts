import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * One message as the mail catcher stores it: `<n>.json` in its folder, beside the raw `<n>.eml`.
 * Another process (a Playwright worker) reads it, so it is plain JSON: addresses as strings,
 * attachments described by their headers, size and SHA-256 rather than their bytes.
 */
export type CaughtMail = {
  /** Order of arrival, from 1: a later message has a higher number. */
  seq: number;
  receivedAt: string;
  /** The SMTP envelope's recipients (lower case). */
  envelopeTo: string[];
  /** The To header's addresses (lower case). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** The HTML part as sent: `cid:` references are kept, not turned into data URLs. */
  html: string | null;
  attachments: {
    filename: string | null;
    contentType: string;
    contentDisposition: string | null;
    cid: string | null;
    size: number;
    sha256: string;
  }[];
};

export type MailCatcher = { port: number; dir: string; stop(): Promise<void> };

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((object) => object.value)
    .flatMap((entry) => (entry.address ? [entry.address.toLowerCase()] : []));

/**
 * A real SMTP server on loopback (plain SMTP, no auth) that writes every message it accepts to
 * `dir`, for a whole browser-test run: the test server mails to it, and any worker reads the folder
 * (tests/e2e/helpers.ts `waitForMail`). Files appear whole: each is written under a temporary name
 * and renamed, so a reader never sees half a message.
 */
export async function startMailCatcher(options: { port: number; dir: string }): Promise<MailCatcher> {
  mkdirSync(options.dir, { recursive: true });
  let seq = 0;
  const write = (name: string, content: string | Buffer) => {
    const tmp = path.join(options.dir, `.${name}.tmp`);
    writeFileSync(tmp, content);
    renameSync(tmp, path.join(options.dir, name));
  };

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // The outbox attaches photos; the default limit is far above them, but say so.
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw, { keepCidLinks: true })
          .then((mail) => {
            seq += 1;
            const name = String(seq).padStart(6, "0");
            const caught: CaughtMail = {
              seq,
              receivedAt: new Date().toISOString(),
              envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              to: addresses(mail.to),
              from: mail.from?.text ?? "",
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: typeof mail.html === "string" ? mail.html : null,
              attachments: mail.attachments.map((a) => ({
                filename: a.filename ?? null,
                contentType: a.contentType,
                contentDisposition: a.contentDisposition ?? null,
                cid: a.cid ?? null,
                size: a.content.length,
                sha256: createHash("sha256").update(a.content).digest("hex"),
              })),
            };
            write(`${name}.eml`, raw);
            write(`${name}.json`, JSON.stringify(caught, null, 2));
            callback();
          })
          .catch(callback);
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  // A client that drops its connection must not end the test runner's process (an 'error' event
  // without a listener would throw).
  server.on("error", (error) => console.warn(`mail catcher: ${error.message}`));
  return {
    port: options.port,
    dir: options.dir,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
