import { sql } from "kysely";
import type { AddressObject } from "mailparser";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { goodQuote, quotePost } from "../../../tests/helpers/quote-form";
import { startTestSmtpServer, type TestSmtpServer } from "../../../tests/helpers/smtp-server";
import { getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import { MAX_AUTOMATIC_ATTEMPTS } from "~/models/quote-request.server";
import { action } from "~/routes/contact";
import { resetEnvCache } from "~/utils/env.server";
import { retryUnsentQuoteNotifications, startQuoteNotificationRetries } from "./quote-notifications.server";

const database = useAppDatabase();
let smtp: TestSmtpServer;

/** Posts to the /contact route's action, as the browser does. */
const post = (request: Request) => action({ request, params: {}, context: {} });
const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

async function rows() {
  return database.current.db.selectFrom("quote_requests").selectAll().orderBy("created_at").execute();
}

/** Pretend the last attempt was long ago, so that the backoff has passed. */
async function ageAttempts() {
  await database.current.db
    .updateTable("quote_requests")
    .set({ updated_at: sql<Date>`now() - interval '2 hours'` })
    .execute();
}

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await smtp.stop();
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetEnvCache();
});

beforeEach(async () => {
  await smtp.start();
  smtp.messages.length = 0;
  smtp.envelopes.length = 0;
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Quote Desk <quotes@example.com>";
  resetEnvCache();
  await database.current.db.deleteFrom("quote_requests").execute();
  // Each test starts with no confirmation sent today (one per address per 24 hours).
  await database.current.db.deleteFrom("rate_limits").execute();
});
afterEach(() => resetEnvCache());

describe("quote notifications over SMTP", () => {
  it("e-mails the business every field, the estimate and the area, reply-to the visitor, and confirms to the visitor", async () => {
    const settings = await getSiteSettings();
    const options = await getQuoteServiceOptions();
    const values = goodQuote({
      zip: "90210",
      service: "twice-weekly",
      dogs: "3",
      message: "Two gates; the side one sticks.",
    });
    const response = await post(quotePost(values));
    expect(response.status).toBe(302);

    const [owner, visitor] = await smtp.waitForMessages(2);
    const [row] = await rows();
    const serviceLabel = options.find((option) => option.value === "twice-weekly")?.label ?? "";

    expect(smtp.envelopes[0]).toEqual([settings.email]);
    expect(addresses(owner.to)).toEqual([settings.email]);
    expect(addresses(owner.replyTo)).toEqual([values.email]);
    expect(owner.from?.text).toContain("quotes@example.com");
    expect(owner.subject).toBe(`New quote request: ${values.name}, ${serviceLabel} [outside service area]`);
    for (const text of [
      values.name,
      "(702) 555-0123",
      values.email,
      values.address,
      "ZIP code: 90210 (outside the service area)",
      "Dogs: 3 dogs",
      "Yard size: Medium (2,000–5,000 sq ft)",
      `Service: ${serviceLabel}`,
      `Estimate shown: ${row.estimate_label}`,
      "Two gates; the side one sticks.",
      `/admin-dashboard/quotes/${row.id}`,
    ]) {
      expect(owner.text, text).toContain(text);
    }

    expect(smtp.envelopes[1]).toEqual([values.email]);
    expect(addresses(visitor.replyTo)).toEqual([settings.email]);
    expect(visitor.subject).toContain(settings.businessName);
    expect(visitor.text).toContain(`within our business hours: ${settings.hours.display}`);
    expect(visitor.text).toContain("90210 may be outside our service area");
    expect(visitor.text).toContain(`Estimated price: ${row.estimate_label}`);
    // Nothing the visitor wrote is relayed to the address they typed.
    for (const written of [values.name, values.address, values.message, values.phone]) {
      expect(visitor.text, written).not.toContain(written);
      expect(visitor.subject).not.toContain(written);
    }

    expect(row).toMatchObject({ notification_status: "sent", notification_attempts: 1, notification_error: null });
    expect(row.notified_at).toBeInstanceOf(Date);
  });

  it("confirms to one address at most once in 24 hours; the business still hears of every request", async () => {
    const email = "victim@example.com";
    await post(quotePost(goodQuote({ email, name: "First", zip: "89048" })));
    await smtp.waitForMessages(2);
    await post(quotePost(goodQuote({ email, name: "Second", zip: "89049", dogs: "2" })));
    await post(quotePost(goodQuote({ email: "VICTIM@example.com", name: "Third", zip: "89050", dogs: "3" })));
    await smtp.waitForMessages(4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const recipients = smtp.envelopes.flat();
    expect(recipients.filter((to) => to.toLowerCase() === email)).toHaveLength(1);
    expect(smtp.messages).toHaveLength(4);
  });

  it("sends from the business's own address when MAIL_FROM is not set", async () => {
    delete process.env.MAIL_FROM;
    resetEnvCache();
    const settings = await getSiteSettings();
    await post(quotePost(goodQuote()));
    const [owner] = await smtp.waitForMessages(2);
    expect(owner.from?.value[0]).toEqual({ name: settings.businessName, address: settings.email });
  });

  it("sends a duplicate post's e-mails once", async () => {
    const values = goodQuote();
    await post(quotePost(values));
    await post(quotePost(values));
    await smtp.waitForMessages(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages).toHaveLength(2);
  });

  it("keeps the request when the mail server is down, and sends it when the server is back", async () => {
    await smtp.stop();
    const response = await post(quotePost(goodQuote({ name: "Down Time" })));
    // The visitor still gets the success screen.
    expect(response.status).toBe(302);
    let [row] = await rows();
    expect(row).toMatchObject({ name: "Down Time", notification_status: "failed", notification_attempts: 1 });
    expect(row.notification_error).toMatch(/ECONNREFUSED|connect/i);
    expect(row.notified_at).toBeNull();

    // Too soon for the periodic retry: its backoff has not passed.
    await smtp.start();
    expect(await retryUnsentQuoteNotifications()).toEqual({ sent: 0, failed: 0 });

    await ageAttempts();
    expect(await retryUnsentQuoteNotifications()).toEqual({ sent: 1, failed: 0 });
    [row] = await rows();
    expect(row).toMatchObject({ notification_status: "sent", notification_attempts: 2, notification_error: null });
    const [owner] = await smtp.waitForMessages(2);
    expect(owner.subject).toContain("Down Time");
  });

  it("retries the backlog after the next request gets through", async () => {
    await smtp.stop();
    await post(quotePost(goodQuote({ name: "First Failed" })));
    await smtp.start();
    await post(quotePost(goodQuote({ name: "Second Works" })));
    const all = await rows();
    expect(all.map((r) => [r.name, r.notification_status])).toEqual([
      ["First Failed", "sent"],
      ["Second Works", "sent"],
    ]);
    const subjects = (await smtp.waitForMessages(4)).map((m) => m.subject);
    expect(subjects.filter((s) => s?.startsWith("New quote request:"))).toHaveLength(2);
  });

  it("retries periodically in the background", async () => {
    await smtp.stop();
    await post(quotePost(goodQuote({ name: "Background Retry" })));
    await smtp.start();
    await ageAttempts();
    const stop = startQuoteNotificationRetries(50);
    try {
      await smtp.waitForMessages(2);
    } finally {
      stop();
    }
    const [row] = await rows();
    expect(row.notification_status).toBe("sent");
  });

  it("stops automatic retries after the limit; the manual retry still sends", async () => {
    await smtp.stop();
    await post(quotePost(goodQuote({ name: "Many Tries" })));
    await database.current.db
      .updateTable("quote_requests")
      .set({ notification_attempts: MAX_AUTOMATIC_ATTEMPTS })
      .execute();
    await ageAttempts();
    await smtp.start();
    expect(await retryUnsentQuoteNotifications()).toEqual({ sent: 0, failed: 0 });
    expect(await retryUnsentQuoteNotifications({ due: false })).toEqual({ sent: 1, failed: 0 });
    await smtp.waitForMessages(2);
  });

  it("marks requests 'skipped' when SMTP_URL is not set, and does not retry them", async () => {
    delete process.env.SMTP_URL;
    resetEnvCache();
    await post(quotePost(goodQuote()));
    const [row] = await rows();
    expect(row).toMatchObject({ notification_status: "skipped", notification_attempts: 0 });
    process.env.SMTP_URL = smtp.url;
    resetEnvCache();
    expect(await retryUnsentQuoteNotifications({ due: false })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(0);
  });
});
