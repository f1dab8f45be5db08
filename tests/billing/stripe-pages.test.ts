import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { STRIPE_TEST_ENV, createOpenInvoice, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import * as adminInvoice from "~/routes/admin-dashboard.billing.$invoiceId";
import * as customerInvoice from "~/routes/customer-dashboard_.billing.$invoiceId";
import * as customerBilling from "~/routes/customer-dashboard_.billing._index";
import * as webhook from "~/routes/resources.webhooks.stripe";

/**
 * The pages' side of paying with Stripe (issue 27 step 3, docs/decisions/103), through the
 * routes and the local stand-in of Stripe's API: "Add a card" and "Pay now" answer 303 to the
 * Checkout session's URL (one session for a double press), the way back stores the card or the
 * payment, the admin's "Refund" refunds at Stripe once, and without Stripe nothing of it shows.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  alice = await createUser(db(), { fullName: "Alice Able" });
  bob = await createUser(db(), { fullName: "Bob Baker" });
  cookies.admin = await sessionCookieFor(admin.id);
  cookies.alice = await sessionCookieFor(alice.id);
  cookies.bob = await sessionCookieFor(bob.id);
});

const KEY = "0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8";
const billingPage = (cookie: string, query = "") =>
  callRoute(customerBilling.loader, `/customer-dashboard/billing${query}`, { cookie });
const post = (cookie: string, form: Record<string, string>) =>
  callRoute(customerBilling.action, "/customer-dashboard/billing", { cookie, form });
const sessionIdOf = (url: string) => url.split("/").pop() ?? "";

describe("without Stripe (the embedded default)", () => {
  it("shows no card or Pay now, and refuses their posts without calling anyone", async () => {
    useStripe(null);
    const invoiceId = await createOpenInvoice(db(), alice.id);
    const page = await (await billingPage(cookies.alice)).json();
    expect(page).toMatchObject({ stripe: false, card: null, owes: true });
    const invoice = await (
      await callRoute(customerInvoice.loader, `/customer-dashboard/billing/${invoiceId}`, {
        cookie: cookies.alice,
        params: { invoiceId },
      })
    ).json();
    expect(invoice.payNow).toBeNull();
    expect((await post(cookies.alice, { intent: "add-card", key: KEY })).status).toBe(404);
    expect((await post(cookies.alice, { intent: "pay-now", key: KEY, invoiceId })).status).toBe(404);
    expect(stripe.current.requests).toEqual([]);
    expect(await db().selectFrom("stripe_customers").selectAll().execute()).toEqual([]);
  });
});

describe("Add a card", () => {
  it("posts to a 303 for Stripe Checkout in setup mode; a double press is one session; the way back shows the card", async () => {
    expect(await (await billingPage(cookies.alice)).json()).toMatchObject({ stripe: true, card: null });
    const first = await post(cookies.alice, { intent: "add-card", key: KEY });
    expect(first.status).toBe(303);
    const url = locationOf(first) ?? "";
    expect(url).toMatch(new RegExp(`^${stripe.current.url}/checkout/cs_`));
    const again = await post(cookies.alice, { intent: "add-card", key: KEY });
    expect(locationOf(again)).toBe(url);
    expect(stripe.current.sessions.size).toBe(1);
    expect(stripe.current.customers.size).toBe(1);
    const [request] = stripe.current.posts("/v1/checkout/sessions");
    expect(request.idempotencyKey).toBe(`card-setup:${alice.id}:${KEY}`);
    expect(request.params).toMatchObject({
      mode: "setup",
      currency: "usd",
      success_url: "https://yards.example.com/customer-dashboard/billing?card_session={CHECKOUT_SESSION_ID}",
      cancel_url: "https://yards.example.com/customer-dashboard/billing",
    });
    expect(stripe.current.posts("/v1/customers")[0].idempotencyKey).toBe(`customer:${alice.id}`);

    const card = stripe.current.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 });
    stripe.current.completeSetupSession(sessionIdOf(url), card.id);
    // Bob coming back with Alice's session stores nothing for him.
    const bobs = await billingPage(cookies.bob, `?card_session=${sessionIdOf(url)}`);
    expect(locationOf(bobs)).toBe("/customer-dashboard/billing");
    expect(await db().selectFrom("stripe_customers").selectAll().where("user_id", "=", bob.id).execute()).toEqual([]);

    const back = await billingPage(cookies.alice, `?card_session=${sessionIdOf(url)}`);
    expect(locationOf(back)).toBe("/customer-dashboard/billing");
    expect(await toastOf(back)).toMatchObject({ type: "success", message: "Card saved" });
    const page = await (await billingPage(cookies.alice)).json();
    expect(page.card).toBe("Visa ending 4242, expires 04/2030");
    const customerId = [...stripe.current.customers.keys()][0];
    expect(stripe.current.customers.get(customerId)?.invoice_settings.default_payment_method).toBe(card.id);
  });

  it("a made-up session id or a bad form changes nothing", async () => {
    expect(locationOf(await billingPage(cookies.alice, "?card_session=cs_nope"))).toBe("/customer-dashboard/billing");
    expect(locationOf(await billingPage(cookies.alice, "?card_session=<script>"))).toBe("/customer-dashboard/billing");
    expect((await post(cookies.alice, { intent: "add-card", key: "not-a-key" })).status).toBe(400);
    expect((await post(cookies.alice, { intent: "steal", key: KEY })).status).toBe(400);
    expect(stripe.current.sessions.size).toBe(0);
    expect(await db().selectFrom("stripe_customers").selectAll().execute()).toEqual([]);
  });
});

describe("Pay now", () => {
  it("opens Checkout for the balance with the invoice and customer in metadata; a double press is one session", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const page = await (await billingPage(cookies.alice)).json();
    expect(page.invoices[0]).toMatchObject({ id: invoiceId, payable: true });
    const first = await post(cookies.alice, { intent: "pay-now", key: KEY, invoiceId });
    expect(first.status).toBe(303);
    expect(locationOf(await post(cookies.alice, { intent: "pay-now", key: KEY, invoiceId }))).toBe(locationOf(first));
    expect(stripe.current.sessions.size).toBe(1);
    const [request] = stripe.current.posts("/v1/checkout/sessions");
    expect(request.params).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][unit_amount]": "8900",
      "line_items[0][price_data][currency]": "usd",
      "metadata[invoice_id]": invoiceId,
      "metadata[customer_id]": alice.id,
      "payment_intent_data[metadata][invoice_id]": invoiceId,
      "payment_intent_data[metadata][customer_id]": alice.id,
      success_url: `https://yards.example.com/customer-dashboard/billing/${invoiceId}?paid_session={CHECKOUT_SESSION_ID}`,
    });

    // Paid on Stripe's page; the way back records the payment once (and so would the webhook).
    const sessionId = sessionIdOf(locationOf(first) ?? "");
    stripe.current.completePaymentSession(sessionId);
    const back = () =>
      callRoute(customerInvoice.loader, `/customer-dashboard/billing/${invoiceId}?paid_session=${sessionId}`, {
        cookie: cookies.alice,
        params: { invoiceId },
      });
    const returned = await back();
    expect(locationOf(returned)).toBe(`/customer-dashboard/billing/${invoiceId}`);
    expect(await toastOf(returned)).toMatchObject({ type: "success", message: "Payment received" });
    await back();
    const rows = await db().selectFrom("payments").selectAll().where("invoice_id", "=", invoiceId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ method: "stripe", amount_cents: 8900 });
    const invoice = await db().selectFrom("invoices").selectAll().where("id", "=", invoiceId).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ status: "paid", paid_cents: 8900 });

    // Now paid: no more Pay now, and a post of the old form is refused with nothing sent.
    expect((await (await billingPage(cookies.alice)).json()).invoices[0].payable).toBe(false);
    const late = await post(cookies.alice, {
      intent: "pay-now",
      key: "1b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8",
      invoiceId,
    });
    expect(late.status).toBe(303);
    expect(locationOf(late)).toBe("/customer-dashboard/billing");
    expect(await toastOf(late)).toMatchObject({ type: "error" });
    expect(stripe.current.sessions.size).toBe(1);
  });

  it("another customer's or a made-up invoice is a 404 and makes no session", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id);
    expect((await post(cookies.bob, { intent: "pay-now", key: KEY, invoiceId })).status).toBe(404);
    expect((await post(cookies.bob, { intent: "pay-now", key: KEY, invoiceId: crypto.randomUUID() })).status).toBe(404);
    expect((await post(cookies.bob, { intent: "pay-now", key: KEY, invoiceId: "x" })).status).toBe(404);
    // Bob returning with Alice's paid session records nothing.
    const url = locationOf(await post(cookies.alice, { intent: "pay-now", key: KEY, invoiceId })) ?? "";
    stripe.current.completePaymentSession(sessionIdOf(url));
    const bobInvoice = await createOpenInvoice(db(), bob.id);
    await callRoute(
      customerInvoice.loader,
      `/customer-dashboard/billing/${bobInvoice}?paid_session=${sessionIdOf(url)}`,
      {
        cookie: cookies.bob,
        params: { invoiceId: bobInvoice },
      },
    );
    expect(await db().selectFrom("payments").selectAll().execute()).toEqual([]);
    expect(stripe.current.sessions.size).toBe(1);
  });

  it("the invoice page's Pay now posts to the same 303", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id);
    const data = await (
      await callRoute(customerInvoice.loader, `/customer-dashboard/billing/${invoiceId}`, {
        cookie: cookies.alice,
        params: { invoiceId },
      })
    ).json();
    expect(data.payNow?.formKey).toMatch(/^[0-9a-f-]{36}$/);
    const response = await callRoute(customerInvoice.action, `/customer-dashboard/billing/${invoiceId}`, {
      cookie: cookies.alice,
      params: { invoiceId },
      form: { intent: "pay-now", key: data.payNow.formKey },
    });
    expect(response.status).toBe(303);
    expect(locationOf(response)).toMatch(/\/checkout\/cs_/);
  });
});

describe("the admin's Refund of a card payment", () => {
  async function paidByCard(totalCents = 8900) {
    const invoiceId = await createOpenInvoice(db(), alice.id, totalCents);
    const url = locationOf(await post(cookies.alice, { intent: "pay-now", key: crypto.randomUUID(), invoiceId })) ?? "";
    const { session } = stripe.current.completePaymentSession(sessionIdOf(url));
    const payload = JSON.stringify(stripe.current.event("checkout.session.completed", session));
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
    });
    const answer = await callRoute(webhook.action, "/resources/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: { "Stripe-Signature": signature },
    });
    expect(answer.status).toBe(200);
    const payment = await db()
      .selectFrom("payments")
      .selectAll()
      .where("invoice_id", "=", invoiceId)
      .executeTakeFirstOrThrow();
    return { invoiceId, payment };
  }
  const refund = (invoiceId: string, paymentId: string, amount: string, key: string) =>
    callRoute(adminInvoice.action, `/admin-dashboard/billing/${invoiceId}`, {
      cookie: cookies.admin,
      params: { invoiceId },
      form: { intent: "refund", paymentId, amount, note: "", key },
    });

  it("refunds at Stripe with the form's key, once, never more than was paid; its webhook adds nothing", async () => {
    const { invoiceId, payment } = await paidByCard();
    expect(payment.stripe_payment_intent_id).toMatch(/^pi_/);
    const over = await refund(invoiceId, payment.id, "89.01", "2b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8");
    expect(over.status).toBe(409);
    expect(stripe.current.posts("/v1/refunds")).toEqual([]);

    const key = "3b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8";
    expect((await refund(invoiceId, payment.id, "20.00", key)).status).toBe(302);
    expect((await refund(invoiceId, payment.id, "20.00", key)).status).toBe(302);
    const requests = stripe.current.posts("/v1/refunds");
    expect(requests).toHaveLength(1);
    expect(requests[0].idempotencyKey).toBe(`refund:${key}`);
    expect(requests[0].params).toMatchObject({ payment_intent: payment.stripe_payment_intent_id, amount: "2000" });
    const stripeRefund = [...stripe.current.refunds.values()][0];

    // Stripe's charge.refunded for it finds the refund recorded by its id.
    const payload = JSON.stringify(
      stripe.current.event("charge.refunded", stripe.current.chargeOf(payment.stripe_payment_intent_id!)),
    );
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
    });
    await callRoute(webhook.action, "/resources/webhooks/stripe", {
      method: "POST",
      body: payload,
      headers: { "Stripe-Signature": signature },
    });
    const refunds = await db().selectFrom("refunds").selectAll().execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount_cents: 2000, stripe_refund_id: stripeRefund.id, idempotency_key: key });
    const invoice = await db().selectFrom("invoices").selectAll().where("id", "=", invoiceId).executeTakeFirstOrThrow();
    // A refund never reopens the invoice (docs/decisions/113): it stays paid and shows what went back.
    expect(invoice).toMatchObject({ status: "paid", paid_cents: 8900, refunded_cents: 2000 });

    // What is left (69.00) and not a cent more.
    expect((await refund(invoiceId, payment.id, "69.01", "4b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8")).status).toBe(409);
    expect(stripe.current.posts("/v1/refunds")).toHaveLength(1);
  });

  it("a form key Stripe has for another amount (an answer lost) is refused as such, not as 'unreachable'", async () => {
    const { invoiceId, payment } = await paidByCard();
    const key = "5b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8";
    // The first press reached Stripe for $10.00, its answer never came back; the form is sent again edited.
    const lost = await fetch(`${stripe.current.url}/v1/refunds`, {
      method: "POST",
      headers: { "Idempotency-Key": `refund:${key}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ payment_intent: payment.stripe_payment_intent_id!, amount: "1000" }),
    });
    expect(lost.status).toBe(200);
    const again = await refund(invoiceId, payment.id, "20.00", key);
    expect(again.status).toBe(409);
    const { toast } = (await again.json()) as { toast: { description: string } };
    expect(toast.description).toBe(
      "Stripe has a refund from this form for another amount. Nothing new was refunded; check the payment in Stripe.",
    );
    expect(await db().selectFrom("refunds").selectAll().execute()).toEqual([]);
    expect(stripe.current.refunds.size).toBe(1);
  });

  it("the admin sees a dispute on the payment", async () => {
    const { invoiceId, payment } = await paidByCard();
    await db()
      .updateTable("payments")
      .set({
        disputed_at: new Date("2028-03-10T18:00:00Z"),
        dispute_note: "The customer disputed this payment with their bank (fraudulent).",
      })
      .where("id", "=", payment.id)
      .execute();
    const data = await (
      await callRoute(adminInvoice.loader, `/admin-dashboard/billing/${invoiceId}`, {
        cookie: cookies.admin,
        params: { invoiceId },
      })
    ).json();
    expect(data.invoice.payments[0]).toMatchObject({
      viaStripe: true,
      dispute: {
        note: "The customer disputed this payment with their bank (fraudulent).",
        date: expect.stringContaining("2028"),
      },
    });
  });
});
