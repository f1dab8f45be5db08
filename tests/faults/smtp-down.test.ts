import { sql } from "kysely";
import { beforeEach, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { goodQuote, quotePost } from "../helpers/quote-form";
import { useTestSmtp } from "../helpers/smtp-server";
import { deliverDueEmails } from "~/features/outbox/outbox.server";
import { getQuoteEmailStatuses } from "~/features/quotes/quote-notifications.server";
import { action } from "~/routes/contact";

// Fault (d) of issue 16: the mail server down. Mail waits in the outbox and goes later; the
// visitor's request is answered and stored meanwhile. A real SMTP server on loopback, stopped
// and started again on the same port. (Visit e-mails: tests/visits/visit-emails.test.ts.)
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Quote Desk <quotes@example.com>");

beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("quote_requests").execute();
});

test("SMTP down: a quote is accepted, its e-mails wait in the outbox, and go once the server is back", async () => {
  await smtp.current.stop();
  const started = Date.now();
  const response = await action({ request: quotePost(goodQuote({ name: "Down Time" })), params: {}, context: {} });
  // The visitor's answer never waits on the mail server.
  expect(response.status).toBe(302);
  expect(Date.now() - started).toBeLessThan(5_000);
  const [quote] = await db().selectFrom("quote_requests").selectAll().execute();
  expect(quote.name).toBe("Down Time");

  // The worker tries while the server is down: both rows go back to waiting, with the error.
  expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 2 });
  const waiting = await db().selectFrom("outbox").selectAll().execute();
  expect(waiting).toHaveLength(2);
  for (const row of waiting) {
    expect(row).toMatchObject({ status: "pending", attempts: 1, related_id: quote.id });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(row.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
  }
  // The admin sees it on the request's page.
  expect((await getQuoteEmailStatuses(quote.id)).owner).toMatchObject({
    status: "pending",
    label: "Waiting to be sent",
    attempts: 1,
  });

  await smtp.current.start();
  // Still inside its backoff: the worker leaves it alone.
  expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
  expect(smtp.current.messages).toHaveLength(0);
  // Backoff over: it goes, once each.
  await db()
    .updateTable("outbox")
    .set({ next_attempt_at: sql<Date>`now() - interval '1 second'` })
    .execute();
  expect(await deliverDueEmails()).toEqual({ sent: 2, failed: 0 });
  expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
  expect(smtp.current.messages).toHaveLength(2);
  expect(smtp.current.messages.map((m) => m.subject).find((s) => s?.startsWith("New quote request:"))).toContain(
    "Down Time",
  );
  const sent = await db().selectFrom("outbox").select(["status", "attempts", "last_error"]).execute();
  expect(sent).toEqual([
    { status: "sent", attempts: 2, last_error: null },
    { status: "sent", attempts: 2, last_error: null },
  ]);
  expect((await getQuoteEmailStatuses(quote.id)).owner).toMatchObject({ status: "sent", error: null });
});
