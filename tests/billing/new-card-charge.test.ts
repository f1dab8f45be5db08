import Stripe from "stripe";
import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { STRIPE_TEST_ENV, createOpenInvoice, giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { chargeNewCard } from "~/features/billing/new-card-charge.server";
import { runPaymentCollection } from "~/features/billing/payment-recovery.server";
import { chargeKeyFor } from "~/features/billing/stripe-charge.server";
import { syncSetupIntent } from "~/features/billing/stripe-checkout.server";
import { addDays, businessToday } from "~/features/visits/visit-dates";
import * as customerBilling from "~/routes/customer-dashboard_.billing._index";
import * as webhook from "~/routes/resources.webhooks.stripe";

/**
 * A new card pays what is due at once (docs/decisions/107), through the routes and the local
 * stand-in of Stripe's API, on the real clock: the customer whose card was declined puts a new
 * one on file with "Update card", and the way back from Checkout charges the invoice then (not
 * at the next retry days later); Stripe's webhooks for the same card charge nothing more.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

const KEY = "1c2d3e4f-5061-4a72-8b83-94a5b6c7d8e9";
let alice: TestUser;
let bob: TestUser;
const cookies: Record<string, string> = {};
let oldCard: { customerId: string; paymentMethodId: string };

beforeEach(async () => {
  alice = await createUser(db(), { fullName: "Alice Able" });
  bob = await createUser(db(), { fullName: "Bob Baker" });
  cookies.alice = await sessionCookieFor(alice.id);
  cookies.bob = await sessionCookieFor(bob.id);
  oldCard = await giveCard(db(), stripe.current, alice.id, {
    brand: "visa",
    last4: "0341",
    expMonth: 1,
    expYear: 2027,
  });
  // Put on file long ago (the helper's date is in the future of this test's real clock).
  await db()
    .updateTable("stripe_customers")
    .set({ card_added_at: new Date("2025-01-01T00:00:00Z") })
    .execute();
  stripe.current.outcomes.set(oldCard.paymentMethodId, "card_declined");
});

const today = () => businessToday(new Date());
const billingPage = (cookie: string, query = "") =>
  callRoute(customerBilling.loader, `/customer-dashboard/billing${query}`, { cookie });
const invoiceRow = (id: string) =>
  db().selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const paymentsOf = (id: string) =>
  db().selectFrom("payments").select(["amount_cents", "method"]).where("invoice_id", "=", id).execute();
const failureMail = (id: string) =>
  db()
    .selectFrom("outbox")
    .select(["kind", "dedupe_key"])
    .where("related_id", "=", id)
    .where("kind", "=", "payment_failed")
    .orderBy("created_at")
    .execute();
const intents = () => stripe.current.posts("/v1/payment_intents");

/** An open invoice of the customer's, due `daysAgo` days ago. */
async function dueInvoice(customerId: string, daysAgo: number, cents = 8900) {
  const id = await createOpenInvoice(db(), customerId, cents);
  await db()
    .updateTable("invoices")
    .set({ due_on: addDays(today(), -daysAgo), issued_on: addDays(today(), -daysAgo) })
    .where("id", "=", id)
    .execute();
  return id;
}

/** The old card declined by the collection job: attempt 1 failed, the next try in 3 days. */
async function declinedOnce(invoiceId: string) {
  expect(await runPaymentCollection({ now: new Date(), db: db() })).toMatchObject({ charged: 1, failed: 1 });
  expect(await invoiceRow(invoiceId)).toMatchObject({ charge_attempts: 1, next_charge_on: addDays(today(), 3) });
}

/** "Add a card" / "Update card" pressed: the Checkout session it opened. */
async function startCardSetup(cookie: string) {
  const started = await callRoute(customerBilling.action, "/customer-dashboard/billing", {
    cookie,
    form: { intent: "add-card", key: KEY },
  });
  expect(started.status).toBe(303);
  return (locationOf(started) ?? "").split("/").pop() ?? "";
}

/** "Update card" through Checkout with a new card; returns the way back's answer. */
async function updateCard(cookie: string, card = { brand: "mastercard", last4: "4444", expMonth: 8, expYear: 2031 }) {
  const sessionId = await startCardSetup(cookie);
  const method = stripe.current.addPaymentMethod(card);
  const completed = stripe.current.completeSetupSession(sessionId, method.id);
  const back = await billingPage(cookie, `?card_session=${sessionId}`);
  expect(locationOf(back)).toBe("/customer-dashboard/billing");
  return { back, method, ...completed };
}

function signed(event: object) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
  });
  return callRoute(webhook.action, "/resources/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
  });
}

describe("a new card after a decline", () => {
  it("pays the invoice on the way back from Checkout, once: its webhooks charge nothing more", async () => {
    const invoiceId = await dueInvoice(alice.id, 2);
    await declinedOnce(invoiceId);
    const { number } = await invoiceRow(invoiceId);

    const { back, method, session, setupIntent } = await updateCard(cookies.alice);
    expect(await toastOf(back)).toEqual(
      expect.objectContaining({
        type: "success",
        message: "Card saved",
        description: `Your card is on file and paid invoice ${number} ($89.00).`,
      }),
    );
    // Charged at once with the new card, as the second attempt.
    expect(intents()).toHaveLength(2);
    expect(intents()[1]).toMatchObject({
      idempotencyKey: chargeKeyFor(invoiceId, 2, 8900),
      params: expect.objectContaining({ payment_method: method.id, amount: "8900", off_session: "true" }),
    });
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900, charge_attempts: 2 });
    expect(await paymentsOf(invoiceId)).toEqual([{ amount_cents: 8900, method: "stripe" }]);
    const page = await (await billingPage(cookies.alice)).json();
    expect(page).toMatchObject({ card: "Mastercard ending 4444, expires 08/2031", owes: false });
    expect(page.paymentNotice).toEqual([]);

    // Stripe's own events for that card, each twice: the card is known, nothing is charged again.
    for (const event of [
      stripe.current.event("checkout.session.completed", session),
      stripe.current.event("setup_intent.succeeded", setupIntent),
    ]) {
      expect((await signed(event)).status).toBe(200);
      expect((await signed(event)).status).toBe(200);
    }
    expect(intents()).toHaveLength(2);
    expect(await paymentsOf(invoiceId)).toHaveLength(1);
    expect((await failureMail(invoiceId)).map((mail) => mail.dedupe_key)).toEqual([`payment-failed:${invoiceId}:1`]);
  });

  it("declined too: the way back says why, the failure is the second attempt, and the card stays on file", async () => {
    const invoiceId = await dueInvoice(alice.id, 2);
    await declinedOnce(invoiceId);
    const { number } = await invoiceRow(invoiceId);
    stripe.current.outcomes.set(oldCard.customerId, "insufficient_funds");

    const { back, setupIntent } = await updateCard(cookies.alice);
    expect(await toastOf(back)).toEqual(
      expect.objectContaining({
        type: "error",
        message: "Payment failed",
        description: `Your card is on file, but invoice ${number} could not be charged: Your card has insufficient funds.`,
      }),
    );
    expect(await invoiceRow(invoiceId)).toMatchObject({
      status: "open",
      paid_cents: 0,
      charge_attempts: 2,
      last_failure_reason: "Your card has insufficient funds.",
      // The second failure's retry, 5 days on.
      next_charge_on: addDays(today(), 5),
    });
    expect(await paymentsOf(invoiceId)).toEqual([]);
    expect((await failureMail(invoiceId)).map((mail) => mail.dedupe_key)).toEqual([
      `payment-failed:${invoiceId}:1`,
      `payment-failed:${invoiceId}:2`,
    ]);
    const page = await (await billingPage(cookies.alice)).json();
    expect(page.card).toBe("Mastercard ending 4444, expires 08/2031");

    // The webhook for the same card charges nothing more and sends nothing more.
    expect((await signed(stripe.current.event("setup_intent.succeeded", setupIntent))).status).toBe(200);
    expect(intents()).toHaveLength(2);
    expect(await failureMail(invoiceId)).toHaveLength(2);
  });

  it("through the webhook alone (the customer closed the tab): the new card pays, and the way back later charges nothing", async () => {
    const invoiceId = await dueInvoice(alice.id, 1);
    await declinedOnce(invoiceId);
    const sessionId = await startCardSetup(cookies.alice);
    const method = stripe.current.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 });
    const { setupIntent } = stripe.current.completeSetupSession(sessionId, method.id);
    expect((await signed(stripe.current.event("setup_intent.succeeded", setupIntent))).status).toBe(200);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", charge_attempts: 2 });

    const back = await billingPage(cookies.alice, `?card_session=${sessionId}`);
    expect(await toastOf(back)).toEqual(
      expect.objectContaining({ type: "success", message: "Card saved", description: "Your card is on file." }),
    );
    expect(intents()).toHaveLength(2);
    expect(await paymentsOf(invoiceId)).toHaveLength(1);
  });
  it("the way back and the webhook at the same moment: one charge, one payment", async () => {
    const invoiceId = await dueInvoice(alice.id, 2);
    await declinedOnce(invoiceId);
    const sessionId = await startCardSetup(cookies.alice);
    const method = stripe.current.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 });
    const { setupIntent } = stripe.current.completeSetupSession(sessionId, method.id);
    const [back, hook] = await Promise.all([
      billingPage(cookies.alice, `?card_session=${sessionId}`),
      signed(stripe.current.event("setup_intent.succeeded", setupIntent)),
    ]);
    expect(locationOf(back)).toBe("/customer-dashboard/billing");
    expect((await toastOf(back))?.type).toBe("success");
    expect(hook.status).toBe(200);
    expect(intents()).toHaveLength(2);
    expect(await paymentsOf(invoiceId)).toEqual([{ amount_cents: 8900, method: "stripe" }]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", charge_attempts: 2 });
  });
});

describe("what a new card does not charge", () => {
  it("an invoice not yet due, one the bank is still processing, or another customer's", async () => {
    const notDue = await createOpenInvoice(db(), alice.id, 5000);
    await db()
      .updateTable("invoices")
      .set({ issued_on: today(), due_on: addDays(today(), 3) })
      .where("id", "=", notDue)
      .execute();
    const processing = await dueInvoice(alice.id, 1, 4000);
    await db()
      .updateTable("invoices")
      .set({ charge_attempts: 1, next_charge_on: null })
      .where("id", "=", processing)
      .execute();
    const bobs = await dueInvoice(bob.id, 1, 3000);
    await db()
      .updateTable("invoices")
      .set({
        charge_attempts: 1,
        next_charge_on: addDays(today(), 3),
        first_failed_at: new Date(),
        last_failed_at: new Date(),
      })
      .where("id", "=", bobs)
      .execute();

    const first = await updateCard(cookies.alice);
    expect(await toastOf(first.back)).toEqual(
      expect.objectContaining({ type: "success", message: "Card saved", description: "Your card is on file." }),
    );
    expect(intents()).toEqual([]);
    expect(await invoiceRow(notDue)).toMatchObject({ status: "open", next_charge_on: null, charge_attempts: 0 });
    expect(await invoiceRow(processing)).toMatchObject({ status: "open", next_charge_on: null, charge_attempts: 1 });
    expect(await invoiceRow(bobs)).toMatchObject({ status: "open", next_charge_on: addDays(today(), 3) });
    expect(await db().selectFrom("payments").select("id").execute()).toEqual([]);
  });

  it("the same card put on file again charges nothing", async () => {
    const invoiceId = await dueInvoice(alice.id, 2);
    await declinedOnce(invoiceId);
    // Saving the card that is on file already (another Checkout, the same payment method).
    const sessionId = await startCardSetup(cookies.alice);
    stripe.current.completeSetupSession(sessionId, oldCard.paymentMethodId);
    const back = await billingPage(cookies.alice, `?card_session=${sessionId}`);
    expect(await toastOf(back)).toEqual(
      expect.objectContaining({ type: "success", message: "Card saved", description: "Your card is on file." }),
    );
    expect(intents()).toHaveLength(1);
    expect(await invoiceRow(invoiceId)).toMatchObject({ charge_attempts: 1, next_charge_on: addDays(today(), 3) });
  });
});

describe("Stripe out of reach when the new card is stored", () => {
  it("records nothing, keeps the try due today, and the hourly collection charges it", async () => {
    const invoiceId = await dueInvoice(alice.id, 2);
    await declinedOnce(invoiceId);
    const method = stripe.current.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 });
    const setupIntent = {
      id: "seti_outofreach",
      object: "setup_intent",
      status: "succeeded",
      customer: oldCard.customerId,
      payment_method: method.id,
      created: Math.floor(Date.now() / 1000),
    } as unknown as Stripe.SetupIntent;
    const synced = await syncSetupIntent(db(), setupIntent, new Date());
    expect(synced.stored).toBe(true);
    expect(synced.due.map((invoice) => invoice.id)).toEqual([invoiceId]);

    useStripe(stripe.current, { STRIPE_API_BASE_URL: "http://127.0.0.1:9" });
    const charges = await chargeNewCard(db(), synced.due, new Date());
    expect(charges).toEqual([expect.objectContaining({ result: "pending", reason: null })]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", charge_attempts: 1, next_charge_on: today() });
    expect(await failureMail(invoiceId)).toHaveLength(1);

    useStripe(stripe.current);
    expect(await runPaymentCollection({ now: new Date(), db: db() })).toMatchObject({ charged: 1, succeeded: 1 });
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", charge_attempts: 2 });
    expect(intents().at(-1)).toMatchObject({ params: expect.objectContaining({ payment_method: method.id }) });
  });
});
