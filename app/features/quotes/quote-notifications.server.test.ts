import { sql } from "kysely";
import type { QuoteRequest } from "../../../db/schema";
import type { AddressObject } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { goodQuote, quotePost } from "../../../tests/helpers/quote-form";
import { useTestSmtp } from "../../../tests/helpers/smtp-server";
import { getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import { deliverDueEmails } from "~/features/outbox/outbox.server";
import { action } from "~/routes/contact";
import { resetEnvCache } from "~/utils/env.server";
import { createQuoteRequest } from "~/models/quote-request.server";
import { getQuoteEmailStatuses, queueQuoteEmails, quoteEmailContext } from "./quote-notifications.server";
import { createQuoteSchema } from "./quote-schema";

// Quote e-mails through the outbox (docs/decisions/034), against a real SMTP server on loopback.
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Quote Desk <quotes@example.com>");

/** Posts to the /contact route's action, as the browser does. */
const post = (request: Request) => action({ request, params: {}, context: {} });
const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

async function quotes() {
  return db().selectFrom("quote_requests").selectAll().orderBy("created_at").execute();
}
async function outbox() {
  return db().selectFrom("outbox").selectAll().orderBy("created_at").orderBy("kind").execute();
}

/** Sends everything due, as the worker does, until nothing is left. */
async function drain() {
  const total = { sent: 0, failed: 0 };
  for (;;) {
    const { sent, failed } = await deliverDueEmails();
    total.sent += sent;
    total.failed += failed;
    if (sent + failed === 0) return total;
  }
}

beforeEach(async () => {
  await db().deleteFrom("quote_requests").execute();
  // Each test starts with no confirmation sent today (one per address per 24 hours).
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("rate_limits").execute();
});
afterEach(() => resetEnvCache());

describe("quote e-mails through the outbox", () => {
  it("one quote: nothing sent in the request, then exactly one e-mail to the business and one confirmation", async () => {
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
    // Stored with the request, not sent inside it.
    expect(smtp.current.messages).toHaveLength(0);
    const [row] = await quotes();
    expect((await outbox()).map((e) => [e.kind, e.status, e.related_id, e.attempts])).toEqual([
      ["quote_owner", "pending", row.id, 0],
      ["quote_visitor", "pending", row.id, 0],
    ]);

    expect(await drain()).toEqual({ sent: 2, failed: 0 });
    expect(smtp.current.messages).toHaveLength(2);
    const owner = smtp.current.messages.find((m) => m.subject?.startsWith("New quote request:"))!;
    const visitor = smtp.current.messages.find((m) => m !== owner)!;
    const serviceLabel = options.find((option) => option.value === "twice-weekly")?.label ?? "";

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

    expect(addresses(visitor.to)).toEqual([values.email]);
    expect(addresses(visitor.replyTo)).toEqual([settings.email]);
    expect(visitor.subject).toContain(settings.businessName);
    expect(visitor.text).toContain(`within our business hours: ${settings.hours.display}`);
    expect(visitor.text).toContain("90210 may be outside our service area");
    expect(visitor.text).toContain(`Estimated price: ${row.estimate_label}`);
    // Nothing the visitor wrote is relayed to the address they typed (no mail relay).
    for (const written of [values.name, values.address, values.message, values.phone]) {
      expect(visitor.text, written).not.toContain(written);
      expect(visitor.subject).not.toContain(written);
    }

    expect((await outbox()).map((e) => [e.status, e.attempts, e.last_error])).toEqual([
      ["sent", 1, null],
      ["sent", 1, null],
    ]);
    // The admin's page reads the status from these rows.
    const statuses = await getQuoteEmailStatuses(row.id);
    expect(statuses.owner).toMatchObject({ status: "sent", label: "Sent", attempts: 1, error: null });
    expect(statuses.owner?.sentAt).toBeTruthy();
    expect(statuses.visitor).toMatchObject({ status: "sent", label: "Sent" });
    // Sent once: another pass sends nothing.
    expect(await drain()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.current.messages).toHaveLength(2);
  });

  it("a visitor's text never reaches the address typed, whatever it holds", async () => {
    const values = goodQuote({
      name: "Buy cheap pills at spam.example",
      address: "http://spam.example/offer",
      message: "Visit http://spam.example now",
    });
    await post(quotePost(values));
    await drain();
    const visitor = smtp.current.messages.find((m) => addresses(m.to).includes(values.email))!;
    expect(`${visitor.subject}\n${visitor.text}\n${visitor.html || ""}`).not.toContain("spam.example");
  });

  it("confirms to one address at most once in 24 hours; the business still hears of every request", async () => {
    const email = "victim@example.com";
    await post(quotePost(goodQuote({ email, name: "First", zip: "89048" })));
    await post(quotePost(goodQuote({ email, name: "Second", zip: "89049", dogs: "2" })));
    await post(quotePost(goodQuote({ email: " VICTIM@example.com", name: "Third", zip: "89050", dogs: "3" })));
    const rows = await outbox();
    expect(rows.filter((e) => e.kind === "quote_owner")).toHaveLength(3);
    expect(rows.filter((e) => e.kind === "quote_visitor")).toHaveLength(1);
    expect(await drain()).toEqual({ sent: 4, failed: 0 });
    expect(smtp.current.envelopes.flat().filter((to) => to.toLowerCase() === email)).toHaveLength(1);

    // The admin's page of a request without one says why.
    const [, second] = await quotes();
    const statuses = await getQuoteEmailStatuses(second.id);
    expect(statuses.owner?.status).toBe("sent");
    expect(statuses.visitor).toBeNull();

    // 24 hours later the address may have one again.
    await db()
      .updateTable("outbox")
      .set({ created_at: sql<Date>`now() - interval '24 hours 1 minute'` } as never)
      .where("kind", "=", "quote_visitor")
      .execute();
    await post(quotePost(goodQuote({ email, name: "Fourth", zip: "89051", dogs: "1" })));
    expect((await outbox()).filter((e) => e.kind === "quote_visitor")).toHaveLength(2);
  });

  it("two requests from one address in overlapping transactions queue one confirmation", async () => {
    const stored: QuoteRequest[] = [];
    for (const name of ["Overlap One", "Overlap Two"]) {
      const input = createQuoteSchema().parse(goodQuote({ name, email: "race@example.com" }));
      const { quote } = await createQuoteRequest({
        ...input,
        outsideServiceArea: false,
        estimateCents: null,
        estimateLabel: null,
        clientKey: null,
      });
      stored.push(quote);
    }
    const context = await quoteEmailContext("weekly");
    // The first transaction queues, then holds on before committing; the second starts meanwhile.
    // Without the lock the second would look before the first committed and queue a second one.
    const first = db()
      .transaction()
      .execute(async (trx) => {
        await queueQuoteEmails(trx, stored[0], context);
        await new Promise((resolve) => setTimeout(resolve, 400));
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = db()
      .transaction()
      .execute((trx) => queueQuoteEmails(trx, stored[1], context));
    await Promise.all([first, second]);
    const rows = await outbox();
    expect(rows.filter((e) => e.kind === "quote_owner")).toHaveLength(2);
    expect(rows.filter((e) => e.kind === "quote_visitor").map((e) => e.related_id)).toEqual([stored[0].id]);
  });

  it("sends from the business's own address when MAIL_FROM is not set", async () => {
    delete process.env.MAIL_FROM;
    resetEnvCache();
    const settings = await getSiteSettings();
    await post(quotePost(goodQuote()));
    await drain();
    expect(smtp.current.messages).toHaveLength(2);
    for (const mail of smtp.current.messages) {
      expect(mail.from?.value[0]).toEqual({ name: settings.businessName, address: settings.email });
    }
  });

  it("a duplicate post queues and sends its e-mails once", async () => {
    const values = goodQuote();
    await post(quotePost(values));
    await post(quotePost(values));
    expect(await outbox()).toHaveLength(2);
    expect(await drain()).toEqual({ sent: 2, failed: 0 });
    expect(smtp.current.messages).toHaveLength(2);
  });

  it("refused posts (invalid, honeypot, rate limited) queue and send nothing", async () => {
    const ip = "10.9.9.9";
    expect((await post(quotePost(goodQuote({ zip: "12" }), { ip }))).status).toBe(400);
    expect((await post(quotePost(goodQuote({ website: "http://spam.example" }), { ip }))).status).toBe(302);
    for (let i = 0; i < 5; i++) await post(quotePost(goodQuote({ name: `Person ${i}` }), { ip }));
    expect(await outbox()).toHaveLength(10);
    expect((await post(quotePost(goodQuote({ name: "One Too Many" }), { ip }))).status).toBe(429);
    expect(await quotes()).toHaveLength(5);
    expect(await outbox()).toHaveLength(10);
    await drain();
    expect(smtp.current.messages).toHaveLength(10);
    expect(smtp.current.messages.some((m) => m.text?.includes("One Too Many"))).toBe(false);
  });

  it("without SMTP_URL both e-mails are kept as skipped and never sent", async () => {
    delete process.env.SMTP_URL;
    resetEnvCache();
    expect((await post(quotePost(goodQuote()))).status).toBe(302);
    const [row] = await quotes();
    expect((await outbox()).map((e) => [e.kind, e.status])).toEqual([
      ["quote_owner", "skipped"],
      ["quote_visitor", "skipped"],
    ]);
    expect(await getQuoteEmailStatuses(row.id)).toMatchObject({
      owner: { status: "skipped", label: "Not sent (e-mail is not configured)" },
      visitor: { status: "skipped" },
    });
    // Configuring SMTP later does not send them.
    process.env.SMTP_URL = smtp.current.url;
    resetEnvCache();
    expect(await drain()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.current.messages).toHaveLength(0);
  });

  it("two workers never send one quote e-mail twice", async () => {
    for (let i = 0; i < 12; i++) {
      await post(quotePost(goodQuote({ name: `Worker Test ${i}`, email: `w${i}@example.com` })));
    }
    expect(await outbox()).toHaveLength(24);
    const worker = async () => {
      let total = 0;
      for (;;) {
        const { sent, failed } = await deliverDueEmails({ limit: 3 });
        total += sent + failed;
        if (sent + failed === 0) return total;
      }
    };
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(a + b).toBe(24);
    expect(smtp.current.messages).toHaveLength(24);
    const keys = smtp.current.messages.map((m) => `${addresses(m.to).join(",")}|${m.subject}`);
    expect(new Set(keys).size).toBe(24);
    expect((await outbox()).every((e) => e.status === "sent" && e.attempts === 1)).toBe(true);
  });
});
