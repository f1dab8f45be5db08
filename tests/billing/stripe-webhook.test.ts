import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, type TestUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";
import { STRIPE_TEST_ENV, createOpenInvoice, giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { startCardSetup, startPayNow } from "~/features/billing/stripe-checkout.server";
import { STRIPE_WEBHOOK_MAX_BYTES } from "~/features/billing/stripe-webhook.server";
import * as webhook from "~/routes/resources.webhooks.stripe";

/**
 * Stripe's webhook (issue 27 step 3, docs/decisions/103), signed with the stripe package's own
 * test-header helper: valid, tampered, unsigned, replayed, oversized, unknown, out of order, and
 * events pointing at another customer's invoice. The handlers read objects back from the local
 * stand-in of Stripe's API, as they would from Stripe.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  alice = await createUser(db(), { fullName: "Alice Able" });
  bob = await createUser(db(), { fullName: "Bob Baker" });
});

function sign(payload: string, secret = STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}
function post(payload: string, signature: string | null = sign(payload)) {
  return callRoute(webhook.action, "/resources/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", ...(signature ? { "Stripe-Signature": signature } : {}) },
  });
}
const send = (event: object) => post(JSON.stringify(event));

const userOf = (u: TestUser) => ({ id: u.id, email: u.email, fullName: "Someone" });
const sessionIdOf = (url: string) => url.split("/").pop() ?? "";

/** "Pay now" made by the app, then paid on Stripe's page: the session and its PaymentIntent. */
async function paidSession(user: TestUser, invoiceId: string) {
  const url = await startPayNow(db(), userOf(user), invoiceId, crypto.randomUUID());
  return stripe.current.completePaymentSession(sessionIdOf(url));
}

const state = async (invoiceId: string) => ({
  invoice: await db()
    .selectFrom("invoices")
    .select(["status", "paid_cents", "refunded_cents"])
    .where("id", "=", invoiceId)
    .executeTakeFirstOrThrow(),
  payments: await db()
    .selectFrom("payments")
    .select(["method", "amount_cents", "refunded_cents", "stripe_payment_intent_id", "disputed_at"])
    .where("invoice_id", "=", invoiceId)
    .execute(),
  refunds: await db()
    .selectFrom("refunds as r")
    .innerJoin("payments as p", "p.id", "r.payment_id")
    .select(["r.amount_cents", "r.stripe_refund_id"])
    .where("p.invoice_id", "=", invoiceId)
    .execute(),
});
const eventCount = async () => (await db().selectFrom("stripe_events").select("id").execute()).length;

describe("POST /resources/webhooks/stripe", () => {
  it("checkout.session.completed records the payment once; a replay and the intent's own event add nothing", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const { session, paymentIntent } = await paidSession(alice, invoiceId);
    const event = stripe.current.event("checkout.session.completed", session);

    const first = await send(event);
    expect(first.status).toBe(200);
    expect(await state(invoiceId)).toMatchObject({
      invoice: { status: "paid", paid_cents: 8900 },
      payments: [{ method: "stripe", amount_cents: 8900, stripe_payment_intent_id: paymentIntent.id }],
    });
    const replay = await send(event);
    expect(replay.status).toBe(200);
    expect(await send(stripe.current.event("payment_intent.succeeded", paymentIntent))).toHaveProperty("status", 200);
    expect((await state(invoiceId)).payments).toHaveLength(1);
    expect((await state(invoiceId)).invoice.paid_cents).toBe(8900);
    expect(await eventCount()).toBe(2);
  });

  it("a tampered body, a wrong secret or no signature is 400 and stores nothing", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id);
    const { paymentIntent } = await paidSession(alice, invoiceId);
    const payload = JSON.stringify(stripe.current.event("payment_intent.succeeded", paymentIntent));
    const tampered = payload.replace(`"amount":8900`, `"amount":1`);
    expect(tampered).not.toBe(payload);
    expect((await post(tampered, sign(payload))).status).toBe(400);
    expect((await post(payload, sign(payload, "whsec_someoneelse0123456"))).status).toBe(400);
    expect((await post(payload, null)).status).toBe(400);
    expect((await post(payload, "t=1,v1=deadbeef")).status).toBe(400);
    expect(await eventCount()).toBe(0);
    expect((await state(invoiceId)).payments).toEqual([]);
  });

  it("an oversized body is 413 before it is read; an unknown type is 200 and ignored", async () => {
    const big = JSON.stringify({
      id: "evt_big",
      type: "payment_intent.succeeded",
      pad: "x".repeat(STRIPE_WEBHOOK_MAX_BYTES),
    });
    expect((await post(big)).status).toBe(413);
    const unknown = await send(stripe.current.event("customer.created", { id: "cus_x", object: "customer" }));
    expect(unknown.status).toBe(200);
    expect(await eventCount()).toBe(0);
  });

  it("another account's event, another customer's or an unknown invoice changes nothing", async () => {
    const bobsInvoice = await createOpenInvoice(db(), bob.id, 4000);
    const alicesInvoice = await createOpenInvoice(db(), alice.id, 4000);
    const { paymentIntent } = await paidSession(alice, alicesInvoice);
    // Alice's intent whose metadata names Bob's invoice (and Bob), or Bob's invoice with Alice as customer.
    for (const metadata of [
      { invoice_id: bobsInvoice, customer_id: bob.id },
      { invoice_id: bobsInvoice, customer_id: alice.id },
      { invoice_id: crypto.randomUUID(), customer_id: alice.id },
      { invoice_id: "not-a-uuid", customer_id: alice.id },
    ]) {
      stripe.current.paymentIntents.get(paymentIntent.id)!.metadata = metadata;
      expect((await send(stripe.current.event("payment_intent.succeeded", paymentIntent))).status).toBe(200);
    }
    stripe.current.paymentIntents.get(paymentIntent.id)!.metadata = {
      invoice_id: alicesInvoice,
      customer_id: alice.id,
    };
    const foreign = stripe.current.event("payment_intent.succeeded", paymentIntent, { account: "acct_someoneelse" });
    expect((await send(foreign)).status).toBe(200);
    expect(await state(bobsInvoice)).toMatchObject({ invoice: { status: "open", paid_cents: 0 }, payments: [] });
    expect(await state(alicesInvoice)).toMatchObject({ invoice: { status: "open", paid_cents: 0 }, payments: [] });
  });

  it("charge.refunded before payment_intent.succeeded: the payment and the refund, once each", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const { paymentIntent } = await paidSession(alice, invoiceId);
    const { refund, charge } = stripe.current.refundInDashboard(paymentIntent.id, 2000);

    expect((await send(stripe.current.event("charge.refunded", charge))).status).toBe(200);
    const after = {
      invoice: { status: "paid", paid_cents: 8900, refunded_cents: 2000 },
      payments: [{ amount_cents: 8900, refunded_cents: 2000 }],
      refunds: [{ amount_cents: 2000, stripe_refund_id: refund.id }],
    };
    expect(await state(invoiceId)).toMatchObject(after);
    expect((await send(stripe.current.event("payment_intent.succeeded", paymentIntent))).status).toBe(200);
    expect((await send(stripe.current.event("charge.refunded", charge))).status).toBe(200);
    const final = await state(invoiceId);
    expect(final).toMatchObject(after);
    expect(final.payments).toHaveLength(1);
    expect(final.refunds).toHaveLength(1);
  });

  it("a failure arriving after the success records no failure; a real failure goes to onStripePaymentFailed once", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const url = await startPayNow(db(), userOf(alice), invoiceId, crypto.randomUUID());
    const declined = stripe.current.addPaymentMethod({ brand: "visa", last4: "0002", expMonth: 1, expYear: 2031 });
    stripe.current.outcomes.set(declined.id, "card_declined");
    const { paymentIntent } = stripe.current.completePaymentSession(sessionIdOf(url), declined.id);
    const failedEvent = stripe.current.event("payment_intent.payment_failed", { ...paymentIntent });

    expect((await send(failedEvent)).status).toBe(200);
    expect(await db().selectFrom("stripe_payment_failures").select(["invoice_id", "reason"]).execute()).toEqual([
      { invoice_id: invoiceId, reason: "Your card was declined." },
    ]);
    expect((await state(invoiceId)).payments).toEqual([]);
    // The invoice is not due yet (decision 117): a declined Pay now starts no retries, no pause
    // countdown and no "payment failed" e-mail.
    expect(
      await db()
        .selectFrom("invoices")
        .select(["first_failed_at", "next_charge_on", "charge_attempts"])
        .where("id", "=", invoiceId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ first_failed_at: null, next_charge_on: null, charge_attempts: 0 });
    expect(await db().selectFrom("invoice_charge_failures").select("id").execute()).toEqual([]);
    expect(await db().selectFrom("outbox").select("id").where("kind", "=", "payment_failed").execute()).toEqual([]);

    // The customer tried another card on Stripe's page: the intent succeeded; its events come late.
    Object.assign(stripe.current.paymentIntents.get(paymentIntent.id)!, { status: "succeeded", amount_received: 8900 });
    const secondFailure = stripe.current.event("payment_intent.payment_failed", { ...paymentIntent });
    expect((await send(secondFailure)).status).toBe(200);
    expect(await state(invoiceId)).toMatchObject({ invoice: { status: "paid", paid_cents: 8900 } });
    expect((await send(stripe.current.event("payment_intent.succeeded", paymentIntent))).status).toBe(200);
    expect((await state(invoiceId)).payments).toHaveLength(1);
    expect(await db().selectFrom("stripe_payment_failures").select("id").execute()).toHaveLength(1);
  });

  it("setup_intent.succeeded stores the card and makes it the default; an older card's late event does not replace it", async () => {
    const older = await startCardSetup(db(), userOf(alice), crypto.randomUUID());
    const newer = await startCardSetup(db(), userOf(alice), crypto.randomUUID());
    const oldCard = stripe.current.addPaymentMethod({ brand: "mastercard", last4: "4444", expMonth: 1, expYear: 2029 });
    const newCard = stripe.current.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 });
    const first = stripe.current.completeSetupSession(sessionIdOf(older), oldCard.id);
    const second = stripe.current.completeSetupSession(sessionIdOf(newer), newCard.id);
    second.setupIntent.created = first.setupIntent.created + 60;

    expect((await send(stripe.current.event("setup_intent.succeeded", second.setupIntent))).status).toBe(200);
    expect((await send(stripe.current.event("checkout.session.completed", first.session))).status).toBe(200);
    const row = await db()
      .selectFrom("stripe_customers")
      .selectAll()
      .where("user_id", "=", alice.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      payment_method_id: newCard.id,
      card_brand: "visa",
      card_last4: "4242",
      card_exp_month: 4,
      card_exp_year: 2030,
    });
    expect(stripe.current.customers.get(row.stripe_customer_id)?.invoice_settings.default_payment_method).toBe(
      newCard.id,
    );
  });

  it("a setup for a Stripe customer the app does not know stores nothing", async () => {
    const url = await startCardSetup(db(), userOf(alice), crypto.randomUUID());
    const card = stripe.current.addPaymentMethod({ brand: "visa", last4: "1111", expMonth: 2, expYear: 2032 });
    const { setupIntent } = stripe.current.completeSetupSession(sessionIdOf(url), card.id);
    await db().deleteFrom("stripe_customers").execute();
    expect((await send(stripe.current.event("setup_intent.succeeded", setupIntent))).status).toBe(200);
    expect(await db().selectFrom("stripe_customers").selectAll().execute()).toEqual([]);
  });

  it("charge.dispute.created marks the payment for the admin", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const { paymentIntent } = await paidSession(alice, invoiceId);
    const charge = stripe.current.chargeOf(paymentIntent.id);
    const dispute = {
      id: "dp_test1",
      object: "dispute",
      charge: charge.id,
      payment_intent: paymentIntent.id,
      amount: 8900,
      reason: "fraudulent",
      status: "needs_response",
    };
    expect((await send(stripe.current.event("charge.dispute.created", dispute))).status).toBe(200);
    const payment = await db()
      .selectFrom("payments")
      .selectAll()
      .where("invoice_id", "=", invoiceId)
      .executeTakeFirstOrThrow();
    expect(payment.disputed_at).not.toBeNull();
    expect(payment.dispute_note).toBe("The customer disputed this payment with their bank (fraudulent).");
  });

  it("off-session charge then its webhook: one payment", async () => {
    await giveCard(db(), stripe.current, alice.id);
    const invoiceId = await createOpenInvoice(db(), alice.id, 3000);
    const { chargeInvoiceOffSession } = await import("~/features/billing/stripe-charge.server");
    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: new Date() });
    if (outcome.kind !== "succeeded") throw new Error(outcome.kind);
    const intent = stripe.current.paymentIntents.get(outcome.paymentIntentId)!;
    expect((await send(stripe.current.event("payment_intent.succeeded", intent))).status).toBe(200);
    expect(await state(invoiceId)).toMatchObject({ invoice: { status: "paid", paid_cents: 3000 } });
    expect((await state(invoiceId)).payments).toHaveLength(1);
  });

  it("Stripe unreachable while handling is a 500 with nothing stored; Stripe's retry then records it", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const { paymentIntent } = await paidSession(alice, invoiceId);
    const event = stripe.current.event("payment_intent.succeeded", paymentIntent);
    useStripe(stripe.current, { STRIPE_API_BASE_URL: "http://127.0.0.1:9" });
    expect((await send(event)).status).toBe(500);
    expect(await eventCount()).toBe(0);
    expect((await state(invoiceId)).payments).toEqual([]);
    useStripe(stripe.current);
    expect((await send(event)).status).toBe(200);
    expect(await state(invoiceId)).toMatchObject({ invoice: { status: "paid", paid_cents: 8900 } });
  });

  it("without Stripe the endpoint is 404", async () => {
    useStripe(null);
    expect((await post("{}", "t=1,v1=x")).status).toBe(404);
  });
});
