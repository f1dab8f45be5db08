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
});
