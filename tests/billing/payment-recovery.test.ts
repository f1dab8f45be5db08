import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { customerWithTuesdayPlan, planVisitsOf, PLAN_TEST_MONDAY } from "../helpers/plan-seed";
import { callRoute } from "../helpers/route-calls";
import { giveCard, useStripe } from "../helpers/stripe-billing";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import Stripe from "stripe";
import { STRIPE_TEST_ENV } from "../helpers/stripe-billing";
import type { PlanRules } from "~/content/types";
import {
  notePaymentFailed,
  runPaymentCollection,
  type ChargeInvoice,
  type ChargeOutcome,
  type RecoveryContext,
} from "~/features/billing/payment-recovery.server";
import { recordPayment } from "~/features/billing/payments.server";
import { UNREACHABLE } from "~/features/billing/stripe-charge.server";
import { pausePlan } from "~/features/plans/plan-changes.server";
import { generatePlanVisits } from "~/features/plans/visit-generator.server";
import * as billingTab from "~/routes/admin-dashboard.billing._index";
import * as customerBilling from "~/routes/customer-dashboard_.billing._index";
import * as stripeWebhook from "~/routes/resources.webhooks.stripe";

/**
 * Failed payments are recovered (issue 27 item 4, docs/decisions/104), on a real database with a
 * fixed clock. The customer's weekly Tuesday plan starts on Monday 1 March 2027 (visits on 2, 9,
 * 16, 23 March...); its March invoice is due that day. Every "day" below is 10:00 in Las Vegas.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const rules: PlanRules = {
  changeNoticeHours: 24,
  longestPauseDays: 90,
  horizonDays: 28,
  firstVisitTime: "08:00",
  closedDays: [],
};
const context: RecoveryContext = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://localhost:3000",
  graceDays: 7,
  planRules: rules,
};
/** 10:00 in Las Vegas on that day of March 2027 (PST to the 13th, PDT from the 14th). */
const march = (day: number) => new Date(`2027-03-${String(day).padStart(2, "0")}T${day < 14 ? "18" : "17"}:00:00Z`);

// Each test's invoice alone is open: the job walks every open invoice.
beforeEach(async () => {
  await db()
    .updateTable("invoices")
    .set({ status: "void", voided_at: new Date() })
    .where("status", "=", "open")
    .execute();
});

let invoiceCount = 0;
async function planWithOpenInvoice() {
  const seeded = await customerWithTuesdayPlan(db(), rules);
  invoiceCount += 1;
  const invoice = await db()
    .insertInto("invoices")
    .values({
      number: `2027-${String(900000 + invoiceCount)}`,
      customer_id: seeded.customer.id,
      plan_id: seeded.plan.id,
      period_month: "2027-03-01",
      status: "open",
      issued_on: "2027-03-01",
      due_on: "2027-03-01",
      total_cents: 8900,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...seeded, invoice };
}

/**
 * A stand-in for the Stripe charge (until the stand-in of Stripe's API is wired): answers the
 * scripted outcomes in turn and, on success, records the payment as a Stripe charge would.
 */
function scriptedCharge(outcomes: Array<ChargeOutcome["kind"] | "unreachable">) {
  const calls: Array<{ invoiceId: string; attempt: number; day: string }> = [];
  const charge: ChargeInvoice = async (handle, input) => {
    calls.push({ invoiceId: input.invoiceId, attempt: input.attempt, day: input.now.toISOString().slice(0, 10) });
    const kind = outcomes.shift() ?? "failed";
    const paymentIntentId = `pi_${input.invoiceId.slice(0, 8)}_${input.attempt}`;
    if (kind === "failed") return { kind, reason: "Your card has insufficient funds.", paymentIntentId };
    if (kind === "unreachable") return { kind: "failed", reason: UNREACHABLE, paymentIntentId: null };
    if (kind === "succeeded") {
      const invoice = await handle
        .selectFrom("invoices")
        .select(["total_cents", "paid_cents"])
        .where("id", "=", input.invoiceId)
        .executeTakeFirstOrThrow();
      await recordPayment(handle, {
        invoiceId: input.invoiceId,
        method: "stripe",
        amountCents: invoice.total_cents - invoice.paid_cents,
        paidOn: input.now.toISOString().slice(0, 10),
        note: null,
        recordedBy: null,
        idempotencyKey: `stripe:${paymentIntentId}`,
        stripePaymentIntentId: paymentIntentId,
        now: input.now,
      });
      return { kind, paymentIntentId };
    }
    if (kind === "processing") return { kind, paymentIntentId };
    return { kind } as ChargeOutcome;
  };
  return { charge, calls };
}

const collect = (now: Date, charge?: ChargeInvoice, stripeConfigured = true) =>
  runPaymentCollection({ now, db: db(), context, charge, stripeConfigured });

const mailOf = (invoiceId: string) =>
  db()
    .selectFrom("outbox")
    .select(["kind", "to_address", "subject", "text_body"])
    .where("related_id", "=", invoiceId)
    .orderBy("created_at")
    .execute();
const invoiceRow = (id: string) =>
  db().selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
/** The plan's visits from one day to another (the horizon moves with the clock), as "day status reason". */
const visitStates = async (planId: string, from = "2027-03-01", to = "2027-03-23") =>
  (await planVisitsOf(db(), planId))
    .filter((v) => v.day >= from && v.day <= to)
    .map((v) => `${v.day} ${v.status} ${v.skip_reason ?? ""}`.trim());

describe("a failed payment", () => {
  it("queues the customer's e-mail at once with the reason and the Update card link; a replay sends nothing more", async () => {
    const { invoice, customer } = await planWithOpenInvoice();
    const first = await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Your card was declined.",
      paymentIntentId: "pi_replayed",
      now: march(1),
      context,
    });
    expect(first).toEqual({ recorded: true });
    const mail = await mailOf(invoice.id);
    expect(mail).toHaveLength(1);
    expect(mail[0].kind).toBe("payment_failed");
    expect(mail[0].to_address).toBe(customer.email);
    expect(mail[0].subject).toBe(`Your payment for invoice ${invoice.number} didn't go through`);
    expect(mail[0].text_body).toContain("The reason given: Your card was declined.");
    expect(mail[0].text_body).toContain("Update card: http://localhost:3000/customer-dashboard/billing");
    expect(mail[0].text_body).toContain("We'll try your card again on Thursday, March 4.");
    expect(mail[0].text_body).toContain("If the invoice is still unpaid on Monday, March 8,");
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({
      charge_attempts: 1,
      last_failure_reason: "Your card was declined.",
      next_charge_on: "2027-03-04",
      status: "open",
    });

    // The same webhook again, and later: nothing new stored, no second e-mail.
    const replay = await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Your card was declined.",
      paymentIntentId: "pi_replayed",
      now: march(2),
      context,
    });
    expect(replay).toEqual({ recorded: false });
    expect(await mailOf(invoice.id)).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 1, next_charge_on: "2027-03-04" });
    const failures = await db()
      .selectFrom("invoice_charge_failures")
      .select("id")
      .where("invoice_id", "=", invoice.id)
      .execute();
    expect(failures).toHaveLength(1);
  });

  it("is ignored for an invoice that is no longer open (nothing stored, no e-mail)", async () => {
    const { invoice } = await planWithOpenInvoice();
    await recordPayment(db(), {
      invoiceId: invoice.id,
      method: "cash",
      amountCents: 8900,
      paidOn: "2027-03-01",
      note: null,
      recordedBy: null,
      idempotencyKey: `cash-${invoice.id}`,
      now: march(1),
    });
    const late = await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Declined",
      paymentIntentId: "pi_late",
      now: march(2),
      context,
    });
    expect(late).toEqual({ recorded: false });
    // The cash payment's receipt alone: no failure e-mail.
    expect((await mailOf(invoice.id)).map((m) => m.kind)).toEqual(["payment_receipt"]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 0, first_failed_at: null });
  });
});

describe("the collection job", () => {
  it("charges on the due day and retries 3 days after the first failure and 5 after the second, never before", async () => {
    const { invoice } = await planWithOpenInvoice();
    const { charge, calls } = scriptedCharge(["failed", "failed", "failed"]);
    for (const day of [1, 2, 3, 4, 5, 8, 9, 10, 20]) await collect(march(day), charge);
    const mine = calls.filter((c) => c.invoiceId === invoice.id);
    expect(mine.map((c) => `${c.day} #${c.attempt}`)).toEqual(["2027-03-01 #1", "2027-03-04 #2", "2027-03-09 #3"]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 3, next_charge_on: null, status: "open" });
    // One e-mail per failed attempt.
    expect((await mailOf(invoice.id)).filter((m) => m.kind === "payment_failed")).toHaveLength(3);
  });

  it("Stripe out of reach is no failure of the card: nothing counted, no e-mail, the next run tries again", async () => {
    const { invoice } = await planWithOpenInvoice();
    const { charge, calls } = scriptedCharge(["unreachable", "failed"]);
    await collect(march(1), charge);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 0, first_failed_at: null });
    expect(await mailOf(invoice.id)).toEqual([]);
    await collect(march(1), charge);
    expect(calls.map((c) => c.attempt)).toEqual([1, 1]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 1, next_charge_on: "2027-03-04" });
  });

  it("a success on retry pays the invoice and stops the retries", async () => {
    const { invoice } = await planWithOpenInvoice();
    const { charge, calls } = scriptedCharge(["failed", "succeeded"]);
    for (const day of [1, 4, 9, 20]) await collect(march(day), charge);
    expect(calls.filter((c) => c.invoiceId === invoice.id).map((c) => c.attempt)).toEqual([1, 2]);
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: "paid", paid_cents: 8900, next_charge_on: null, charge_attempts: 2 });
    expect((await mailOf(invoice.id)).map((m) => m.kind)).toEqual(["payment_failed", "payment_receipt"]);
  });

  it("pauses the plan after the grace days (visits skipped payment_overdue, the customer told), not before", async () => {
    const { invoice, plan, customer } = await planWithOpenInvoice();
    const { charge } = scriptedCharge(["failed", "failed", "failed"]);
    for (const day of [1, 4, 7]) await collect(march(day), charge);
    expect((await invoiceRow(invoice.id)).plan_paused_at).toBeNull();
    expect(await visitStates(plan.id, "2027-03-08")).toEqual([
      "2027-03-09 scheduled",
      "2027-03-16 scheduled",
      "2027-03-23 scheduled",
    ]);

    const result = await collect(march(8), charge);
    expect(result.paused).toBe(1);
    expect((await invoiceRow(invoice.id)).plan_paused_at).toEqual(march(8));
    expect(await visitStates(plan.id, "2027-03-08")).toEqual([
      "2027-03-09 skipped payment_overdue",
      "2027-03-16 skipped payment_overdue",
      "2027-03-23 skipped payment_overdue",
    ]);
    const held = await db()
      .selectFrom("customer_plans")
      .selectAll()
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(held).toMatchObject({ status: "active", payment_hold_from: "2027-03-08" });
    const paused = (await mailOf(invoice.id)).filter((m) => m.kind === "payment_paused");
    expect(paused).toHaveLength(1);
    expect(paused[0].to_address).toBe(customer.email);
    expect(paused[0].subject).toBe("Your service is paused until your invoice is paid");

    // The next run pauses nothing more; the generator's new visits are skipped too.
    expect((await collect(march(8), charge)).paused).toBe(0);
    await generatePlanVisits({ now: march(10), db: db(), rules: { ...rules, horizonDays: 35 } });
    expect(await visitStates(plan.id, "2027-03-24", "2027-04-13")).toEqual([
      "2027-03-30 skipped payment_overdue",
      "2027-04-06 skipped payment_overdue",
      "2027-04-13 skipped payment_overdue",
    ]);
    expect((await mailOf(invoice.id)).filter((m) => m.kind === "payment_paused")).toHaveLength(1);
  });

  it("paying by hand resumes the plan: its overdue skips from now on are undone and the customer told", async () => {
    const { invoice, plan } = await planWithOpenInvoice();
    const { charge } = scriptedCharge(["failed", "failed", "failed"]);
    for (const day of [1, 4, 8]) await collect(march(day), charge);
    // Wednesday 10 March: the visit of the 9th was skipped and stays so (it is past).
    await recordPayment(db(), {
      invoiceId: invoice.id,
      method: "check",
      amountCents: 8900,
      paidOn: "2027-03-10",
      note: null,
      recordedBy: null,
      idempotencyKey: `check-${invoice.id}`,
      now: march(10),
    });
    expect(await visitStates(plan.id, "2027-03-08")).toEqual([
      "2027-03-09 skipped payment_overdue",
      "2027-03-16 scheduled",
      "2027-03-23 scheduled",
    ]);
    const row = await invoiceRow(invoice.id);
    expect(row).toMatchObject({ status: "paid", next_charge_on: null });
    expect(row.plan_resumed_at).toEqual(march(10));
    const resumed = (await mailOf(invoice.id)).filter((m) => m.kind === "payment_resumed");
    expect(resumed.map((m) => m.subject)).toEqual(["Your service is back on"]);
    const held = await db()
      .selectFrom("customer_plans")
      .selectAll()
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(held).toMatchObject({ status: "active", payment_hold_from: null });
    // No retry after the payment.
    const later = scriptedCharge(["failed"]);
    await collect(march(9 + 5), later.charge);
    expect(later.calls.filter((c) => c.invoiceId === invoice.id)).toEqual([]);
  });

  it("a Stripe charge on the last retry resumes the plan", async () => {
    const { invoice, plan } = await planWithOpenInvoice();
    const { charge } = scriptedCharge(["failed", "failed", "succeeded"]);
    for (const day of [1, 4, 8, 9]) await collect(march(day), charge);
    expect((await invoiceRow(invoice.id)).status).toBe("paid");
    // Run at 10:00 on the 9th: that day's 08:00 visit had started; the later ones are back.
    expect(await visitStates(plan.id, "2027-03-10")).toEqual(["2027-03-16 scheduled", "2027-03-23 scheduled"]);
    // The receipt and "back on" share the payment's transaction (and created_at): sorted by kind.
    expect((await mailOf(invoice.id)).map((m) => m.kind).sort()).toEqual([
      "payment_failed",
      "payment_failed",
      "payment_paused",
      "payment_receipt",
      "payment_resumed",
    ]);
  });

  it("leaves the customer's own pause as it is when the payment resumes the plan", async () => {
    const { invoice, plan, customer } = await planWithOpenInvoice();
    await pausePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      actor: { id: customer.id, isAdmin: false },
      from: "2027-03-20",
      until: "2027-04-10",
      now: PLAN_TEST_MONDAY,
      rules,
    });
    const { charge } = scriptedCharge(["failed", "failed"]);
    for (const day of [1, 4, 8]) await collect(march(day), charge);
    expect(await visitStates(plan.id, "2027-03-08")).toEqual([
      "2027-03-09 skipped payment_overdue",
      "2027-03-16 skipped payment_overdue",
      "2027-03-23 skipped payment_overdue",
    ]);
    await recordPayment(db(), {
      invoiceId: invoice.id,
      method: "cash",
      amountCents: 8900,
      paidOn: "2027-03-10",
      note: null,
      recordedBy: null,
      idempotencyKey: `cash-${invoice.id}`,
      now: march(10),
    });
    expect(await visitStates(plan.id, "2027-03-10")).toEqual(["2027-03-16 scheduled", "2027-03-23 skipped paused"]);
    const after = await db()
      .selectFrom("customer_plans")
      .selectAll()
      .where("id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: "paused", paused_from: "2027-03-20", paused_until: "2027-04-10" });
  });

  it("without Stripe charges nothing; a failure reported earlier still pauses, and a manual payment resumes", async () => {
    const { invoice, plan } = await planWithOpenInvoice();
    const { charge, calls } = scriptedCharge(["succeeded"]);
    await collect(march(1), charge, false);
    expect(calls).toEqual([]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 0, status: "open", next_charge_on: null });
    expect(await mailOf(invoice.id)).toEqual([]);

    await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Expired card",
      paymentIntentId: null,
      now: march(1),
      context,
    });
    await collect(march(8), charge, false);
    expect(calls).toEqual([]);
    expect(await visitStates(plan.id, "2027-03-08")).toContain("2027-03-09 skipped payment_overdue");
    await recordPayment(db(), {
      invoiceId: invoice.id,
      method: "cash",
      amountCents: 8900,
      paidOn: "2027-03-08",
      note: null,
      recordedBy: null,
      idempotencyKey: `cash-${invoice.id}`,
      now: march(8),
    });
    expect(await visitStates(plan.id, "2027-03-08")).toEqual([
      "2027-03-09 scheduled",
      "2027-03-16 scheduled",
      "2027-03-23 scheduled",
    ]);
  });
});

describe("the billing pages", () => {
  it("list the failed payment for the admin and tell its customer (and no one else) with the Update card notice", async () => {
    const { invoice, customer } = await planWithOpenInvoice();
    const admin = await createUser(db(), { admin: true });
    const other = await createUser(db());
    const load = async (handler: Parameters<typeof callRoute>[0], url: string, userId: string): Promise<any> => {
      const response = await callRoute(handler, url, { cookie: await sessionCookieFor(userId) });
      expect(response.status).toBe(200);
      return response.json();
    };
    // Before any failure: nothing listed, no notice.
    expect((await load(billingTab.loader, "/admin-dashboard/billing", admin.id)).failedPayments.items).toEqual([]);
    expect((await load(customerBilling.loader, "/customer-dashboard/billing", customer.id)).paymentNotice).toEqual([]);

    const { charge } = scriptedCharge(["failed"]);
    await collect(march(1), charge);
    const tab = await load(billingTab.loader, "/admin-dashboard/billing", admin.id);
    expect(tab.failedPayments.items).toEqual([
      expect.objectContaining({
        number: invoice.number,
        customer: "Casey Customer",
        reason: "Your card has insufficient funds.",
        attempts: 1,
        nextRetry: "Mar 4, 2027",
        pausedSince: null,
      }),
    ]);
    const mine = await load(customerBilling.loader, "/customer-dashboard/billing", customer.id);
    expect(mine.paymentNotice).toEqual([
      expect.objectContaining({ number: invoice.number, reason: "Your card has insufficient funds.", paused: false }),
    ]);
    expect((await load(customerBilling.loader, "/customer-dashboard/billing", other.id)).paymentNotice).toEqual([]);

    await collect(march(8), charge);
    expect(
      (await load(billingTab.loader, "/admin-dashboard/billing", admin.id)).failedPayments.items[0].pausedSince,
    ).toBe("Mar 8, 2027");
    expect(
      (await load(customerBilling.loader, "/customer-dashboard/billing", customer.id)).paymentNotice[0].paused,
    ).toBe(true);
  });
});

describe("against the stand-in of Stripe's API", () => {
  let standIn: StripeStandIn | undefined;
  afterAll(async () => {
    useStripe(null);
    await standIn?.close();
  });

  it("a decline e-mails the customer; the retry on day 3 succeeds with a key of its own and pays the invoice", async () => {
    standIn = await startStripeStandIn();
    useStripe(standIn);
    const { invoice, customer } = await planWithOpenInvoice();
    const { customerId } = await giveCard(db(), standIn, customer.id);
    standIn.outcomes.set(customerId, "card_declined");
    const run = (day: number) => runPaymentCollection({ now: march(day), db: db(), context });

    expect(await run(1)).toMatchObject({ ran: true, charged: 1, failed: 1 });
    const failed = await mailOf(invoice.id);
    expect(failed.map((m) => m.kind)).toEqual(["payment_failed"]);
    expect(failed[0].text_body).toContain("The reason given: Your card was declined.");
    expect(await invoiceRow(invoice.id)).toMatchObject({
      status: "open",
      charge_attempts: 1,
      next_charge_on: "2027-03-04",
    });

    // Stripe's webhook for the same decline, twice (signed as Stripe signs): no second e-mail.
    const [declined] = await db()
      .selectFrom("invoice_charge_failures")
      .select(["payment_intent_id"])
      .where("invoice_id", "=", invoice.id)
      .execute();
    const intent = standIn.paymentIntents.get(declined.payment_intent_id!)!;
    for (let i = 0; i < 2; i += 1) {
      const payload = JSON.stringify(standIn.event("payment_intent.payment_failed", { ...intent }));
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
      });
      const response = await callRoute(stripeWebhook.action, "/resources/webhooks/stripe", {
        method: "POST",
        body: payload,
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
      });
      expect(response.status).toBe(200);
    }
    // It reached the failure's handler (Stripe's log of declines has it), which found it known.
    expect(
      await db()
        .selectFrom("stripe_payment_failures")
        .select("payment_intent_id")
        .where("invoice_id", "=", invoice.id)
        .execute(),
    ).toEqual([{ payment_intent_id: intent.id }]);
    expect((await mailOf(invoice.id)).map((m) => m.kind)).toEqual(["payment_failed"]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 1, next_charge_on: "2027-03-04" });

    // Not before day 3; then the card goes through.
    await run(3);
    expect(standIn.posts("/v1/payment_intents")).toHaveLength(1);
    standIn.outcomes.set(customerId, "succeeded");
    expect(await run(4)).toMatchObject({ charged: 1, succeeded: 1 });
    const keys = standIn.posts("/v1/payment_intents").map((request) => request.idempotencyKey);
    expect(keys).toEqual([
      `invoice:${invoice.id}:attempt:1:amount:8900`,
      `invoice:${invoice.id}:attempt:2:amount:8900`,
    ]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paid_cents: 8900, next_charge_on: null });
    const payments = await db()
      .selectFrom("payments")
      .select(["method"])
      .where("invoice_id", "=", invoice.id)
      .execute();
    expect(payments).toEqual([{ method: "stripe" }]);
    // The decline's webhook arriving late changes nothing and e-mails nothing.
    const [failure] = await db()
      .selectFrom("invoice_charge_failures")
      .select(["payment_intent_id"])
      .where("invoice_id", "=", invoice.id)
      .execute();
    expect(failure.payment_intent_id).toMatch(/^pi_/);
    const late = await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Your card was declined.",
      paymentIntentId: failure.payment_intent_id,
      now: march(5),
      context,
    });
    expect(late).toEqual({ recorded: false });
    expect((await mailOf(invoice.id)).map((m) => m.kind)).toEqual(["payment_failed", "payment_receipt"]);
    await run(9);
    expect(standIn.posts("/v1/payment_intents")).toHaveLength(2);
  });

  it("charges nothing for an invoice that owes nothing (its credits cover it)", async () => {
    standIn ??= await startStripeStandIn();
    useStripe(standIn);
    standIn.reset();
    const { invoice, customer } = await planWithOpenInvoice();
    await giveCard(db(), standIn, customer.id);
    await db().updateTable("invoices").set({ total_cents: 0 }).where("id", "=", invoice.id).execute();
    expect(await runPaymentCollection({ now: march(1), db: db(), context })).toMatchObject({ charged: 0 });
    expect(standIn.posts("/v1/payment_intents")).toEqual([]);
  });

  it("does nothing for a customer without a card", async () => {
    standIn ??= await startStripeStandIn();
    useStripe(standIn);
    standIn.reset();
    const { invoice } = await planWithOpenInvoice();
    expect(await runPaymentCollection({ now: march(1), db: db(), context })).toMatchObject({ charged: 0 });
    expect(standIn.posts("/v1/payment_intents")).toEqual([]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ charge_attempts: 0, status: "open" });
    expect(await mailOf(invoice.id)).toEqual([]);
  });
});
