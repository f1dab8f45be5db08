import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { resetEnvCache } from "~/utils/env.server";

/**
 * A real SMTP server on loopback for tests: plain SMTP (no TLS, no auth needed), every message
 * parsed with mailparser and kept in `messages`. `stop()` and `start()` again on the same port
 * simulate the mail server going down and coming back.
 */
export type TestSmtpServer = {
  port: number;
  url: string;
  messages: ParsedMail[];
  /** The SMTP envelope recipients of each message, in order. */
  envelopes: string[][];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once `count` messages have arrived in total. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
};

/** `options.port`: a fixed port (a browser test's server was told it in advance); else any free one. */
export async function startTestSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const envelopes: string[][] = [];
  let server: SMTPServer | undefined;
  let port = options.port ?? 0;

  const create = () =>
    new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            messages.push(mail);
            envelopes.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
            callback();
          })
          .catch(callback);
      },
    });

  const handle: TestSmtpServer = {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    messages,
    envelopes,
    async start() {
      if (server) return;
      const next = create();
      await new Promise<void>((resolve, reject) => {
        next.once("error", reject);
        next.listen(port, "127.0.0.1", () => resolve());
      });
      port = (next.server.address() as AddressInfo).port;
      server = next;
    },
    async stop() {
      const current = server;
      server = undefined;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async waitForMessages(count, timeoutMs = 10_000) {
      const started = Date.now();
      while (messages.length < count) {
        if (Date.now() - started > timeoutMs) throw new Error(`Expected ${count} messages, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return messages;
    },
  };
  await handle.start();
  return handle;
}

/**
 * One SMTP server for a test file whose app code sends mail in-process: started once, and before
 * each test running (again, if a test stopped it), emptied, and named by SMTP_URL and MAIL_FROM
 * (`from`). `smtp.current` is the server.
 */
export function useTestSmtp(from: string): { readonly current: TestSmtpServer } {
  let server: TestSmtpServer | undefined;
  const handle = {
    get current() {
      if (!server) throw new Error("useTestSmtp: the server starts in beforeAll");
      return server;
    },
  };
  beforeAll(async () => {
    server = await startTestSmtpServer();
  });
  afterAll(async () => {
    await server?.stop();
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    resetEnvCache();
  });
  beforeEach(async () => {
    await handle.current.start();
    handle.current.messages.length = 0;
    handle.current.envelopes.length = 0;
    process.env.SMTP_URL = handle.current.url;
    process.env.MAIL_FROM = from;
    resetEnvCache();
  });
  return handle;
}
