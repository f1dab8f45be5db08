import Stripe from "stripe";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, toastOf } from "../helpers/route-calls";
import { MAIL_CONTEXT, bill, createPlan, insertOpenInvoice } from "../helpers/billing-fixtures";
import { STRIPE_TEST_ENV, createOpenInvoice, giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { runPaymentCollection } from "~/features/billing/payment-recovery.server";
import { chargeInvoiceOffSession } from "~/features/billing/stripe-charge.server";
import { recordPayment, voidInvoice } from "~/features/billing/payments.server";
import { startPayNow } from "~/features/billing/stripe-checkout.server";
import * as adminInvoice from "~/routes/admin-dashboard.billing.$invoiceId";
import * as webhook from "~/routes/resources.webhooks.stripe";
import { log } from "~/utils/logger.server";

/**
 * Payments that cannot double (issue 34 item 7, docs/decisions/111), against the Stripe stand-in:
 * a "Pay now" Checkout session still open is expired at Stripe once its invoice settles another
 * way (the card on file, a payment by hand), a failure to expire is logged and a payment that
 * still arrives is recorded as before; a Pay now debit still at the bank holds the admin's
 * "Charge" and the hourly collection back.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);
/** 2028-03-02, the day after createOpenInvoice's due day: the collection's first charge is due. */
const NOW = new Date("2028-03-02T17:00:00Z");

let admin: TestUser;
let alice: TestUser;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  alice = await createUser(db(), { fullName: "Alice Able" });
  cookies.admin = await sessionCookieFor(admin.id);
});

const userOf = (u: TestUser) => ({ id: u.id, email: u.email, fullName: "Alice Able" });
const payNow = async (invoiceId: string) =>
  (await startPayNow(db(), userOf(alice), invoiceId, crypto.randomUUID())).split("/").pop()!;
const sessionRow = (id: string) =>
  db().selectFrom("stripe_checkout_sessions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const invoiceRow = (id: string) =>
  db()
    .selectFrom("invoices")
    .select(["status", "paid_cents", "charge_attempts"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const paymentsOf = (id: string) =>
  db()
    .selectFrom("payments")
    .select(["method", "amount_cents"])
    .where("invoice_id", "=", id)
    .orderBy("created_at")
    .execute();
const expiries = () => stripe.current.requests.filter((r) => r.method === "POST" && r.path.endsWith("/expire"));
const byHand = (invoiceId: string, amount: string) =>
  callRoute(adminInvoice.action, `/admin-dashboard/billing/${invoiceId}`, {
    cookie: cookies.admin,
    params: { invoiceId },
    form: {
      intent: "record-payment",
      method: "cash",
      amount,
      paidOn: "2028-03-02",
      note: "",
      key: crypto.randomUUID(),
    },
  });
const chargeButton = (invoiceId: string) =>
  callRoute(adminInvoice.action, `/admin-dashboard/billing/${invoiceId}`, {
    cookie: cookies.admin,
    params: { invoiceId },
    form: { intent: "charge-card" },
  });
function send(event: object) {
  const payload = JSON.stringify(event);
  return callRoute(webhook.action, "/resources/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: {
      "Content-Type": "application/json",
      "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
      }),
    },
  });
}

describe("a Pay now page open when the invoice settles another way", () => {
  it("the card on file pays: the session is expired at Stripe, closed here, and can no longer be paid", async () => {
    await giveCard(db(), stripe.current, alice.id);
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const sessionId = await payNow(invoiceId);
    expect(await sessionRow(sessionId)).toMatchObject({ invoice_id: invoiceId, amount_cents: 8900, closed_at: null });

    expect((await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW })).kind).toBe("succeeded");
    expect(expiries().map((r) => r.path)).toEqual([`/v1/checkout/sessions/${sessionId}/expire`]);
    expect(stripe.current.sessions.get(sessionId)?.status).toBe("expired");
    expect((await sessionRow(sessionId)).closed_at).not.toBeNull();
    expect(() => stripe.current.completePaymentSession(sessionId)).toThrow(/expired/);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900 });
    expect(await paymentsOf(invoiceId)).toEqual([{ method: "stripe", amount_cents: 8900 }]);
  });

  it("a part paid by hand expires the page for the old balance only; the rest paid by hand expires the new one", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const first = await payNow(invoiceId);
    const part = await byHand(invoiceId, "20.00");
    expect(part.status).toBe(302);
    expect(await toastOf(part)).toMatchObject({ type: "success" });
    expect(stripe.current.sessions.get(first)?.status).toBe("expired");

    const second = await payNow(invoiceId);
    expect(await sessionRow(second)).toMatchObject({ amount_cents: 6900, closed_at: null });
    // An unrelated settle of the same balance leaves it payable.
    expect(stripe.current.sessions.get(second)?.status).toBe("open");
    const rest = await byHand(invoiceId, "69.00");
    expect(await toastOf(rest)).toMatchObject({ type: "success" });
    expect(stripe.current.sessions.get(second)?.status).toBe("expired");
    expect(expiries()).toHaveLength(2);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900 });
  });

  it("Stripe out of reach when expiring: the payment by hand stands, the failure is logged, and a payment that still arrives is recorded", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const sessionId = await payNow(invoiceId);
    const warn = vi.spyOn(log, "warn");
    useStripe(stripe.current, { STRIPE_API_BASE_URL: "http://127.0.0.1:9" });
    const paid = await byHand(invoiceId, "89.00");
    useStripe(stripe.current);
    expect(paid.status).toBe(302);
    expect(await toastOf(paid)).toMatchObject({ type: "success" });
    expect(warn).toHaveBeenCalledWith(
      "stripe.checkout_expire_failed",
      expect.objectContaining({ invoiceId, sessionId }),
    );
    warn.mockRestore();
    expect((await sessionRow(sessionId)).closed_at).toBeNull();

    // The customer pays on the page still open: recorded as any Stripe payment (the admin refunds it).
    const { session } = stripe.current.completePaymentSession(sessionId);
    expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
    expect(await paymentsOf(invoiceId)).toEqual([
      { method: "cash", amount_cents: 8900 },
      { method: "stripe", amount_cents: 8900 },
    ]);
    expect((await sessionRow(sessionId)).closed_at).not.toBeNull();
  });
});

describe("a Pay now page of an invoice voided or written off", () => {
  it("is expired at Stripe; a session already paid or expired there is only closed here", async () => {
    const voided = await createOpenInvoice(db(), alice.id, 8900);
    const open = await payNow(voided);
    const gone = await payNow(voided);
    stripe.current.sessions.get(gone)!.status = "expired";
    const response = await callRoute(adminInvoice.action, `/admin-dashboard/billing/${voided}`, {
      cookie: cookies.admin,
      params: { invoiceId: voided },
      form: { intent: "void" },
    });
    expect(await toastOf(response)).toMatchObject({ type: "success" });
    expect(stripe.current.sessions.get(open)?.status).toBe("expired");
    expect((await sessionRow(open)).closed_at).not.toBeNull();
    expect((await sessionRow(gone)).closed_at).not.toBeNull();

    const writtenOff = await createOpenInvoice(db(), alice.id, 4500);
    const page = await payNow(writtenOff);
    await callRoute(adminInvoice.action, `/admin-dashboard/billing/${writtenOff}`, {
      cookie: cookies.admin,
      params: { invoiceId: writtenOff },
      form: { intent: "uncollectible" },
    });
    expect(stripe.current.sessions.get(page)?.status).toBe("expired");
    expect(await invoiceRow(voided)).toMatchObject({ status: "void", paid_cents: 0 });
    expect(await paymentsOf(voided)).toEqual([]);
  });
});

describe("a Pay now page of an invoice that credit on file pays", () => {
  /** Credit on file of `cents` for the customer: a Stripe payment beyond what its invoice owed. */
  async function creditOnFile(customerId: string, cents: number) {
    const paid = await insertOpenInvoice(db(), customerId, 100);
    await recordPayment(db(), {
      invoiceId: paid.id,
      method: "stripe",
      amountCents: 100 + cents,
      paidOn: "2027-02-20",
      note: null,
      recordedBy: null,
      idempotencyKey: `stripe:pi_credit${cents}`,
      stripePaymentIntentId: `pi_credit${cents}`,
      now: NOW,
      context: MAIL_CONTEXT,
    });
  }
  const customerOf = async (userId: string) => {
    const user = await db()
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    return { ...user, fullName: null };
  };

  it("the billing run's credit settles an older invoice: its page is expired at Stripe; another customer's stays open", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await creditOnFile(plan.customer_id, 10000);
    // February, inserted by hand after the credit (so it has not taken it yet), with a Pay now page.
    const february = await insertOpenInvoice(db(), plan.customer_id, 8900, {
      period_month: "2027-02-01",
      issued_on: "2027-02-01",
    });
    const customer = await customerOf(plan.customer_id);
    const sessionId = (await startPayNow(db(), customer, february.id, crypto.randomUUID())).split("/").pop()!;
    const other = await createOpenInvoice(db(), alice.id, 4000);
    const untouched = await payNow(other);

    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    expect(await invoiceRow(february.id)).toMatchObject({ status: "paid", paid_cents: 8900 });
    expect(stripe.current.sessions.get(sessionId)?.status).toBe("expired");
    expect((await sessionRow(sessionId)).closed_at).not.toBeNull();
    expect(() => stripe.current.completePaymentSession(sessionId)).toThrow(/expired/);
    // Only that page: the other customer's invoice still owes its page's amount.
    expect(expiries().map((r) => r.path)).toEqual([`/v1/checkout/sessions/${sessionId}/expire`]);
    expect(stripe.current.sessions.get(untouched)?.status).toBe("open");
    expect((await sessionRow(untouched)).closed_at).toBeNull();
    // The rest of the credit went to the new March invoice, which has no page to expire.
    const march = await db()
      .selectFrom("invoices")
      .select(["credit_applied_cents"])
      .where("plan_id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(march.credit_applied_cents).toBe(1100);
  });

  it("a void gives credit back that pays part of another invoice: that invoice's page for the old balance is expired", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await creditOnFile(plan.customer_id, 3000);
    const first = await insertOpenInvoice(db(), plan.customer_id, 5000, { issued_on: "2027-01-01" });
    const { applyCreditOnFile } = await import("~/features/billing/customer-credit.server");
    await db()
      .transaction()
      .execute((trx) => applyCreditOnFile(trx, [plan.customer_id], NOW));
    const second = await insertOpenInvoice(db(), plan.customer_id, 8900, { issued_on: "2027-02-01" });
    const customer = await customerOf(plan.customer_id);
    const sessionId = (await startPayNow(db(), customer, second.id, crypto.randomUUID())).split("/").pop()!;

    await voidInvoice(db(), { invoiceId: first.id, now: NOW });
    expect(await invoiceRow(second.id)).toMatchObject({ status: "open", paid_cents: 3000 });
    expect(stripe.current.sessions.get(sessionId)?.status).toBe("expired");
    expect((await sessionRow(sessionId)).closed_at).not.toBeNull();
    // A page for the new balance can be made and stays open.
    const fresh = (await startPayNow(db(), customer, second.id, crypto.randomUUID())).split("/").pop()!;
    expect(await sessionRow(fresh)).toMatchObject({ amount_cents: 5900, closed_at: null });
    expect(expiries()).toHaveLength(1);
  });
});

describe("a charge in flight", () => {
  it("a Pay now debit at the bank holds 'Charge' (409) and the hourly collection; its success then pays once", async () => {
    await giveCard(db(), stripe.current, alice.id);
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const sessionId = await payNow(invoiceId);
    const bank = stripe.current.addPaymentMethod({ brand: "visa", last4: "6789", expMonth: 1, expYear: 2031 });
    stripe.current.outcomes.set(bank.id, "processing");
    const { session, paymentIntent } = stripe.current.completePaymentSession(sessionId, bank.id);
    expect(paymentIntent.status).toBe("processing");
    expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
    expect(await sessionRow(sessionId)).toMatchObject({ payment_intent_id: paymentIntent.id, closed_at: null });
    expect((await sessionRow(sessionId)).processing_since).not.toBeNull();

    const refused = await chargeButton(invoiceId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { toast: { description: string } }).toast.description).toMatch(
      /still processing at the bank/,
    );
    expect(await runPaymentCollection({ now: NOW, db: db() })).toMatchObject({ ran: true, charged: 0 });
    expect(stripe.current.posts("/v1/payment_intents")).toEqual([]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 0, charge_attempts: 0 });

    Object.assign(stripe.current.paymentIntents.get(paymentIntent.id)!, { status: "succeeded", amount_received: 8900 });
    const succeeded = stripe.current.event(
      "payment_intent.succeeded",
      stripe.current.paymentIntents.get(paymentIntent.id)!,
    );
    expect((await send(succeeded)).status).toBe(200);
    expect(await paymentsOf(invoiceId)).toEqual([{ method: "stripe", amount_cents: 8900 }]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900 });
    expect((await sessionRow(sessionId)).closed_at).not.toBeNull();
  });
});
