import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useScriptDatabase } from "../helpers/script-database";
import { startTestSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";

/**
 * `npm run outbox:send` (it replaced `npm run quotes:retry`, docs/decisions/034): the real script
 * against a database of its own (PostgreSQL when configured, else a PGlite folder).
 */
const script = useScriptDatabase({
  prefix: "outbox-send",
  env: { MAIL_FROM: "quotes@example.com" },
  unset: ["SMTP_URL"],
});
const sendScript = (env: NodeJS.ProcessEnv) => script.run("outbox-send", [], env);
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  await smtp.stop();
});

// Each case starts the built script and opens the database in a child process: slow on a busy machine.
describe("npm run outbox:send", { timeout: 120_000 }, () => {
  it("refuses to run without SMTP_URL", async () => {
    const result = await sendScript(script.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SMTP_URL is not set");
  });

  it("sends a quote e-mail that waits out its backoff after an SMTP outage now", async () => {
    await script.withDb((db) =>
      db
        .insertInto("outbox")
        .values({
          kind: "quote_owner",
          to_address: "owner@example.com",
          subject: "New quote request: Script Send, Weekly Swift Service",
          text_body: "New quote request from Script Send.",
          status: "pending",
          attempts: 3,
          last_error: "connect ECONNREFUSED",
          // Its next automatic attempt is an hour away.
          next_attempt_at: new Date(Date.now() + 60 * 60 * 1000),
        })
        .execute(),
    );
    const result = await sendScript({ ...script.env, SMTP_URL: smtp.url });
    expect(result.stdout).toContain("Outbox e-mails sent: 1, failed: 0.");
    expect(result.code).toBe(0);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.subject).toContain("Script Send");
    const row = await script.withDb((db) => db.selectFrom("outbox").selectAll().executeTakeFirstOrThrow());
    expect(row).toMatchObject({ status: "sent", attempts: 4, last_error: null });
    expect(smtp.messages).toHaveLength(1);
  });

  it("tries a failed e-mail once more, leaves the records from before the outbox alone, and prunes old sent ones", async () => {
    smtp.messages.length = 0;
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    await script.withDb(async (db) => {
      await db.deleteFrom("outbox").execute();
      await db
        .insertInto("outbox")
        .values([
          {
            kind: "quote_visitor",
            to_address: "visitor@example.com",
            subject: "Given up on after a long outage",
            text_body: "Thanks for your request.",
            status: "failed",
            attempts: 15,
            last_error: "connect ECONNREFUSED",
          },
          // Migration 0005's record of a notification sent (or not) before the outbox: no text.
          {
            kind: "quote_owner",
            to_address: "(the business)",
            subject: "Quote request notification (sent before the outbox)",
            text_body: "",
            status: "failed",
            last_error: "not sent before e-mail moved to the outbox",
          },
          {
            kind: "other",
            to_address: "a@example.com",
            subject: "Old",
            text_body: "x",
            status: "sent",
            sent_at: daysAgo(120),
          },
          {
            kind: "other",
            to_address: "b@example.com",
            subject: "Recent",
            text_body: "x",
            status: "sent",
            sent_at: daysAgo(10),
          },
        ])
        .execute();
    });
    const result = await sendScript({ ...script.env, SMTP_URL: smtp.url });
    expect(result.stdout).toContain("Outbox e-mails sent: 1, failed: 0.");
    expect(result.stdout).toContain("Finished messages older than 90 days deleted: 1.");
    expect(result.code).toBe(0);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail.subject).toBe("Given up on after a long outage");
    const rows = await script.withDb((db) =>
      db.selectFrom("outbox").select(["subject", "status", "attempts"]).orderBy("subject").execute(),
    );
    expect(rows).toEqual([
      { subject: "Given up on after a long outage", status: "sent", attempts: 16 },
      { subject: "Quote request notification (sent before the outbox)", status: "failed", attempts: 0 },
      { subject: "Recent", status: "sent", attempts: 0 },
    ]);
    expect(smtp.messages).toHaveLength(1);
  });
});
