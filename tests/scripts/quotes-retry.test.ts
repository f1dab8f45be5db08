import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteDedupeKey } from "~/models/quote-request.server";
import { createQuoteSchema } from "~/features/quotes/quote-schema";
import { goodQuote } from "../helpers/quote-form";
import { useScriptDatabase } from "../helpers/script-database";
import { startTestSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";

/** The real script against a database of its own (PostgreSQL when configured, else a PGlite folder). */
const script = useScriptDatabase({
  prefix: "quotes-retry",
  env: { MAIL_FROM: "quotes@example.com" },
  unset: ["SMTP_URL"],
});
const retryScript = (env: NodeJS.ProcessEnv) => script.run("scripts/quotes-retry.ts", [], env);
const withScriptDb = script.withDb;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  await smtp.stop();
});

// Each case starts tsx and opens the database in a child process: slow on a busy machine.
describe("npm run quotes:retry", { timeout: 120_000 }, () => {
  it("refuses to run without SMTP_URL", async () => {
    const result = await retryScript(script.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SMTP_URL is not set");
  });

  it("sends every unsent notification, even past the automatic attempt limit, and marks it sent", async () => {
    const input = createQuoteSchema().parse(goodQuote({ name: "Script Retry" }));
    await withScriptDb((db) =>
      db
        .insertInto("quote_requests")
        .values({
          name: input.name,
          phone: input.phone,
          email: input.email,
          address: input.address,
          zip: input.zip,
          dogs: input.dogs,
          yard_size: input.yardSize,
          service: input.service,
          dedupe_key: quoteDedupeKey(input),
          notification_status: "failed",
          notification_attempts: 20,
          notification_error: "connect ECONNREFUSED",
        })
        .execute(),
    );
    const result = await retryScript({ ...script.env, SMTP_URL: smtp.url });
    expect(result.stdout).toContain("Quote notifications sent: 1, failed: 0.");
    expect(result.code).toBe(0);
    const [owner] = await smtp.waitForMessages(2);
    expect(owner.subject).toContain("Script Retry");
    const row = await withScriptDb((db) => db.selectFrom("quote_requests").selectAll().executeTakeFirstOrThrow());
    expect(row).toMatchObject({ notification_status: "sent", notification_attempts: 21, notification_error: null });
  });
});
