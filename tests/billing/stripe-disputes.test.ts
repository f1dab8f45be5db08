import Stripe from "stripe";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { MAIL_CONTEXT, insertOpenInvoice } from "../helpers/billing-fixtures";
import { createUser, type TestUser } from "../helpers/factories";
import { ledgerSum } from "../helpers/ledger";
import { callRoute } from "../helpers/route-calls";
import { STRIPE_TEST_ENV, createOpenInvoice, giveCard, useStripeStandIn } from "../helpers/stripe-billing";
import { DISPUTES_LOST, loadAdminInvoice, loadBillingTab } from "~/features/billing/billing-pages.server";
import { chargeCardNow } from "~/features/billing/charge-now.server";
import { runPaymentCollection } from "~/features/billing/payment-recovery.server";
import {
  BillingError,
  markInvoiceUncollectible,
  recordPayment,
  recordRefund,
  reversePayment,
  voidInvoice,
} from "~/features/billing/payments.server";
import { applyCreditOnFile } from "~/features/billing/customer-credit.server";
import { chargeInvoiceOffSession } from "~/features/billing/stripe-charge.server";
import { recordDisputeLost } from "~/features/billing/stripe-disputes.server";
import { startPayNow } from "~/features/billing/stripe-checkout.server";
import { markDueForNewCard } from "~/models/invoice-collection.server";
import { creditsOnFile, insertCreditNote } from "~/models/ledger.server";
import { markPaymentDisputed } from "~/models/stripe.server";
import * as webhook from "~/routes/resources.webhooks.stripe";

/**
 * Disputes (issue 34 item 7, docs/decisions/118), through signed webhook events whose disputes
 * and PaymentIntents are read back from the local stand-in of Stripe's API: a lost dispute is a
 * reversal of the payment (credit on file first, then owed again), stored once per dispute; the
 * owner is e-mailed once; won and unknown disputes store nothing; an open dispute holds every
 * off-session charge of its invoice.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

let alice: TestUser;
beforeAll(async () => {
  alice = await createUser(db(), { fullName: "Alice Able" });
});
beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
});

const sign = (payload: string) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET });
function send(event: object) {
  const payload = JSON.stringify(event);
  return callRoute(webhook.action, "/resources/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": sign(payload) },
  });
}

const userOf = (u: TestUser) => ({ id: u.id, email: u.email, fullName: "Alice Able" });

/** An invoice paid with "Pay now" on Stripe's page, and its payment recorded by the webhook. */
async function paidByCard(totalCents = 8900) {
  const invoiceId = await createOpenInvoice(db(), alice.id, totalCents);
  const url = await startPayNow(db(), userOf(alice), invoiceId, crypto.randomUUID());
  const { session, paymentIntent } = stripe.current.completePaymentSession(url.split("/").pop() ?? "");
  expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
  return { invoiceId, paymentIntent };
}

/** The bank closes the dispute: its status set at the stand-in, and Stripe's event sent. */
async function closeDispute(dispute: Record<string, unknown>, status: string) {
  stripe.current.disputes.get(dispute.id as string)!.status = status;
  const event = stripe.current.event("charge.dispute.closed", { ...dispute, status });
  return { event, response: await send(event) };
}

const invoiceRow = (id: string) =>
  db()
    .selectFrom("invoices")
    .select(["status", "paid_cents", "credit_applied_cents"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const reversals = () =>
  db().selectFrom("payment_reversals").select(["kind", "amount_cents", "stripe_dispute_id"]).execute();
const disputeMails = () =>
  db().selectFrom("outbox").select(["to_address", "subject", "text_body"]).where("kind", "=", "dispute_lost").execute();
const paymentOf = (invoiceId: string) =>
  db()
    .selectFrom("payments")
    .select(["id", "disputed_at", "dispute_closed_at", "reversed_cents"])
    .where("invoice_id", "=", invoiceId)
    .executeTakeFirstOrThrow();

describe("charge.dispute.closed", () => {
  it("lost: the payment is reversed once, credit on file pays first, the owner is e-mailed once", async () => {
    const { invoiceId, paymentIntent } = await paidByCard(8900);
    // $20 of goodwill kept as credit on file (nothing else is owed, so it waits).
    await insertCreditNote(db(), {
      customerId: alice.id,
      invoiceId: null,
      reason: "goodwill",
      paidOut: "credit",
      amountCents: 2000,
      issuedOn: "2028-03-02",
      description: "Goodwill",
      refundId: null,
      idempotencyKey: "goodwill-1",
    });
    const dispute = stripe.current.openDispute(paymentIntent.id, { reason: "product_not_received" });
    expect((await send(stripe.current.event("charge.dispute.created", dispute))).status).toBe(200);
    expect((await paymentOf(invoiceId)).dispute_closed_at).toBeNull();

    const { event, response } = await closeDispute(dispute, "lost");
    expect(response.status).toBe(200);
    expect(await reversals()).toEqual([{ kind: "dispute_lost", amount_cents: 8900, stripe_dispute_id: dispute.id }]);
    // Owed again, less the credit on file: $69.00 left, and the ledger says the same.
    expect(await invoiceRow(invoiceId)).toEqual({ status: "open", paid_cents: 2000, credit_applied_cents: 2000 });
    expect(await ledgerSum(db(), alice.id)).toBe(6900);
    const entries = await db()
      .selectFrom("ledger_entries")
      .select(["kind", "amount_cents"])
      .where("kind", "=", "dispute_lost")
      .execute();
    expect(entries).toEqual([{ kind: "dispute_lost", amount_cents: 8900 }]);
    expect(await paymentOf(invoiceId)).toMatchObject({ reversed_cents: 8900, dispute_closed_at: expect.any(Date) });
    const mails = await disputeMails();
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(
      `Dispute lost: $89.00 on invoice ${(await loadAdminInvoice(invoiceId))!.invoice.number}`,
    );
    expect(mails[0].text_body).toContain(`dispute ${dispute.id}`);
    expect(mails[0].text_body).toContain("$69.00 is still owed");

    // The same event again, and another delivery of the same dispute: nothing more.
    expect((await send(event)).status).toBe(200);
    expect((await closeDispute(dispute, "lost")).response.status).toBe(200);
    expect(await reversals()).toHaveLength(1);
    expect(await disputeMails()).toHaveLength(1);
    expect(await ledgerSum(db(), alice.id)).toBe(6900);

    // The admin's invoice page: a red line with the amount, the day and Stripe's dispute id.
    const page = await loadAdminInvoice(invoiceId);
    expect(page!.invoice.payments[0].disputesLost).toEqual([
      {
        id: expect.any(String),
        amount: "$89.00",
        date: expect.any(String),
        disputeId: dispute.id,
        fee: "$15.00",
        took: "$89.00 owed again on the invoice",
      },
    ]);
    // Stripe's fee is the business's cost: in the owner's e-mail, never on the customer's balance.
    expect(mails[0].text_body).toContain("Stripe's dispute fee: $15.00");
    expect(page!.invoice.payments[0].dispute).toMatchObject({ open: false });
    // The Billing tab: the count among the status links, and the list behind it.
    const tab = await loadBillingTab(new URL(`http://x/admin-dashboard/billing?status=${DISPUTES_LOST}`));
    expect(tab.statuses.at(-1)).toEqual({ value: DISPUTES_LOST, label: "Disputes lost (1)" });
    expect(tab.status).toBe(DISPUTES_LOST);
    expect(tab.invoices).toEqual([]);
    expect(tab.disputesLost?.items).toEqual([
      expect.objectContaining({
        invoiceId,
        amount: "$89.00",
        fee: "$15.00",
        disputeId: dispute.id,
        customer: "Alice Able",
      }),
    ]);
    expect((await loadBillingTab(new URL("http://x/admin-dashboard/billing"))).disputesLost).toBeNull();
  });

  it("lost for more than is left of the payment: only what it still paid of the invoice is owed again", async () => {
    const { invoiceId, paymentIntent } = await paidByCard(8900);
    // $30 refunded in Stripe's Dashboard first (recorded by its event).
    const { charge } = stripe.current.refundInDashboard(paymentIntent.id, 3000);
    expect((await send(stripe.current.event("charge.refunded", charge))).status).toBe(200);
    const dispute = stripe.current.openDispute(paymentIntent.id, { amount: 8900 });
    // The opening never arrived: the close marks the payment disputed and closed at once.
    expect((await closeDispute(dispute, "lost")).response.status).toBe(200);
    expect(await reversals()).toEqual([{ kind: "dispute_lost", amount_cents: 5900, stripe_dispute_id: dispute.id }]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 3000 });
    expect(await paymentOf(invoiceId)).toMatchObject({
      disputed_at: expect.any(Date),
      dispute_closed_at: expect.any(Date),
    });
  });

  it("won, a warning closed, one still open, an unknown dispute or one of no payment here: no money moves", async () => {
    const { invoiceId, paymentIntent } = await paidByCard(8900);
    const won = stripe.current.openDispute(paymentIntent.id);
    expect((await send(stripe.current.event("charge.dispute.created", won))).status).toBe(200);
    expect((await closeDispute(won, "won")).response.status).toBe(200);
    expect(await paymentOf(invoiceId)).toMatchObject({ dispute_closed_at: expect.any(Date), reversed_cents: 0 });
    const warning = stripe.current.openDispute(paymentIntent.id);
    expect((await closeDispute(warning, "warning_closed")).response.status).toBe(200);
    // Stripe still has it under review (an event out of order): nothing.
    const open = stripe.current.openDispute(paymentIntent.id);
    expect((await send(stripe.current.event("charge.dispute.closed", { ...open, status: "lost" }))).status).toBe(200);
    // A dispute Stripe does not have (resource_missing), and one of a PaymentIntent Stripe does not have.
    const unknown = { id: "du_unknown123", object: "dispute", status: "lost", amount: 8900 };
    expect((await send(stripe.current.event("charge.dispute.closed", unknown))).status).toBe(200);
    const orphan = stripe.current.openDispute(paymentIntent.id);
    stripe.current.disputes.get(orphan.id)!.payment_intent = "pi_unknown999";
    expect((await closeDispute(orphan, "lost")).response.status).toBe(200);
    // A body without the dispute's id.
    expect((await send(stripe.current.event("charge.dispute.closed", { object: "dispute" }))).status).toBe(200);

    expect(await reversals()).toEqual([]);
    expect(await disputeMails()).toEqual([]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900 });
    expect(await ledgerSum(db(), alice.id)).toBe(0);
  });

  it("lost on an invoice the hourly collection charged: it may be charged again (not read as in flight)", async () => {
    await giveCard(db(), stripe.current, alice.id);
    const invoice = await insertOpenInvoice(db(), alice.id, 8900, { issued_on: "2028-03-01", due_on: "2028-03-01" });
    const now = new Date("2028-03-01T18:00:00Z");
    const collection = { now, db: db(), context: { ...MAIL_CONTEXT, graceDays: 7 }, stripeConfigured: true };
    await runPaymentCollection(collection);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paid_cents: 8900 });
    const [charged] = stripe.current.posts("/v1/payment_intents");
    const intent = [...stripe.current.paymentIntents.values()].find((pi) => pi.metadata.invoice_id === invoice.id)!;
    expect(charged).toBeDefined();
    const dispute = stripe.current.openDispute(intent.id);
    expect((await closeDispute(dispute, "lost")).response.status).toBe(200);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "open", paid_cents: 0 });
    // The collection does not charge it again by itself; the admin's "Charge" does.
    await runPaymentCollection({ ...collection, now: new Date("2028-03-02T18:00:00Z") });
    expect(stripe.current.posts("/v1/payment_intents")).toHaveLength(1);
    expect(await chargeCardNow(db(), { invoiceId: invoice.id, now })).toBe("Card charged");
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paid_cents: 8900 });
  });

  it("lost on a written-off invoice: what the payment paid of it is taken back and written off with it, once", async () => {
    // $49 by check, $40 by card, the check bounced, the rest ($49) written off.
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const byHand = { method: "check" as const, note: null, recordedBy: null, now: new Date(), context: MAIL_CONTEXT };
    await recordPayment(db(), {
      ...byHand,
      invoiceId,
      amountCents: 4900,
      paidOn: "2028-03-01",
      idempotencyKey: "check-1",
    });
    const url = await startPayNow(db(), userOf(alice), invoiceId, crypto.randomUUID());
    const { session, paymentIntent } = stripe.current.completePaymentSession(url.split("/").pop() ?? "");
    expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
    const check = await db()
      .selectFrom("payments")
      .select("id")
      .where("invoice_id", "=", invoiceId)
      .where("method", "=", "check")
      .executeTakeFirstOrThrow();
    await reversePayment(db(), {
      invoiceId,
      paymentId: check.id,
      amountCents: 4900,
      reversedOn: "2028-03-03",
      note: "Bounced",
      recordedBy: null,
      idempotencyKey: "bounce-1",
      now: new Date(),
    });
    await markInvoiceUncollectible(db(), { invoiceId, now: new Date() });
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    const dispute = stripe.current.openDispute(paymentIntent.id, { amount: 4000, fee: 1500 });
    const { event, response } = await closeDispute(dispute, "lost");
    expect(response.status).toBe(200);
    // The bank took $40 back: a dispute lost (+$40.00) and the same written off (−$40.00); the
    // invoice stays written off, now with nothing paid, and the customer owes nothing more.
    expect((await reversals()).filter((r) => r.kind === "dispute_lost")).toEqual([
      { kind: "dispute_lost", amount_cents: 4000, stripe_dispute_id: dispute.id },
    ]);
    const entries = await db()
      .selectFrom("ledger_entries")
      .select(["kind", "amount_cents"])
      .where("entry_key", "like", "%reversal:%")
      .orderBy("id")
      .execute();
    expect(entries.slice(1)).toEqual([
      { kind: "dispute_lost", amount_cents: 4000 },
      { kind: "write_off", amount_cents: -4000 },
    ]);
    expect(await invoiceRow(invoiceId)).toEqual({ status: "uncollectible", paid_cents: 0, credit_applied_cents: 0 });
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    const mails = await disputeMails();
    expect(mails).toHaveLength(1);
    expect(mails[0].text_body).toContain("was written off, so the $40.00 that payment had paid of it is written off");
    const page = await loadAdminInvoice(invoiceId);
    const card = page!.invoice.payments.find((p) => p.viaStripe)!;
    expect(card.disputesLost).toEqual([
      expect.objectContaining({ amount: "$40.00", took: "$40.00 written off with the invoice", fee: "$15.00" }),
    ]);

    // Replayed: nothing more.
    expect((await send(event)).status).toBe(200);
    expect((await reversals()).filter((r) => r.kind === "dispute_lost")).toHaveLength(1);
    expect(await disputeMails()).toHaveLength(1);
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "uncollectible", paid_cents: 0 });
  });

  it("lost after an overpayment was refunded: all that paid the invoice is owed again", async () => {
    // $89.00 by card on a $59.00 invoice: $30.00 kept as credit, then refunded to the card.
    const invoice = await insertOpenInvoice(db(), alice.id, 5900, { issued_on: "2028-03-01", due_on: "2028-03-01" });
    const now = new Date("2028-03-02T18:00:00Z");
    await recordPayment(db(), {
      invoiceId: invoice.id,
      method: "stripe",
      amountCents: 8900,
      paidOn: "2028-03-02",
      note: null,
      recordedBy: null,
      idempotencyKey: "stripe:pi_over1",
      stripePaymentIntentId: "pi_over1",
      now,
      context: MAIL_CONTEXT,
    });
    const payment = await paymentOf(invoice.id);
    await recordRefund(db(), {
      invoiceId: invoice.id,
      paymentId: payment.id,
      amountCents: 3000,
      refundedOn: "2028-03-03",
      note: null,
      recordedBy: null,
      idempotencyKey: "refund-over1",
      now,
    });
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    const lost = {
      disputeId: "du_over1",
      paymentId: payment.id,
      invoiceId: invoice.id,
      amountCents: 8900,
      feeCents: 1500,
      reason: "fraudulent",
    };
    expect(await recordDisputeLost(db(), lost, now, MAIL_CONTEXT)).toEqual({
      reopenedCents: 5900,
      fromCreditCents: 0,
      writtenOffCents: 0,
      repeated: false,
    });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "open", paid_cents: 0 });
    expect(await ledgerSum(db(), alice.id)).toBe(5900);
    expect((await recordDisputeLost(db(), lost, now, MAIL_CONTEXT)).repeated).toBe(true);
    expect(await ledgerSum(db(), alice.id)).toBe(5900);
  });

  /** A payment made on Stripe's "Pay now" page after its invoice was voided: kept as credit on file. */
  async function paidAfterVoid() {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const url = await startPayNow(db(), userOf(alice), invoiceId, crypto.randomUUID());
    await voidInvoice(db(), { invoiceId, now: new Date() });
    const { session, paymentIntent } = stripe.current.completePaymentSession(url.split("/").pop() ?? "");
    expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
    expect(await ledgerSum(db(), alice.id)).toBe(-8900);
    return { invoiceId, paymentIntent };
  }

  it("lost on a voided invoice: the credit on file its payment left is taken back, once, never below zero", async () => {
    const { invoiceId, paymentIntent } = await paidAfterVoid();
    const dispute = stripe.current.openDispute(paymentIntent.id);
    expect((await send(stripe.current.event("charge.dispute.created", dispute))).status).toBe(200);
    const { event, response } = await closeDispute(dispute, "lost");
    expect(response.status).toBe(200);
    expect(await reversals()).toEqual([{ kind: "dispute_lost", amount_cents: 8900, stripe_dispute_id: dispute.id }]);
    // The $89.00 of credit is gone, and nothing is owed: the voided invoice stays voided.
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    expect(await creditsOnFile(db(), [alice.id])).toEqual(new Map());
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "void" });
    const mails = await disputeMails();
    expect(mails).toHaveLength(1);
    expect(mails[0].text_body).toContain("$89.00 of it came out of the credit on file that payment had left");
    const page = await loadAdminInvoice(invoiceId);
    expect(page!.invoice.payments[0].disputesLost).toEqual([
      expect.objectContaining({ amount: "$89.00", took: "$89.00 taken from credit on file", fee: "$15.00" }),
    ]);
    expect((await send(event)).status).toBe(200);
    expect((await closeDispute(dispute, "lost")).response.status).toBe(200);
    expect(await reversals()).toHaveLength(1);
    expect(await disputeMails()).toHaveLength(1);
    expect(await ledgerSum(db(), alice.id)).toBe(0);
  });

  it("lost on a voided invoice whose credit already paid another invoice: only what is still on file is taken", async () => {
    const { paymentIntent } = await paidAfterVoid();
    // A $50.00 invoice since, paid from that credit at once: $39.00 is left on file.
    const later = await insertOpenInvoice(db(), alice.id, 5000, { issued_on: "2028-04-01", due_on: "2028-04-01" });
    await db()
      .transaction()
      .execute((trx) => applyCreditOnFile(trx, [alice.id], new Date()));
    expect(await invoiceRow(later.id)).toMatchObject({ status: "paid", credit_applied_cents: 5000 });
    expect(await ledgerSum(db(), alice.id)).toBe(-3900);
    const dispute = stripe.current.openDispute(paymentIntent.id);
    expect((await closeDispute(dispute, "lost")).response.status).toBe(200);
    expect(await reversals()).toEqual([{ kind: "dispute_lost", amount_cents: 3900, stripe_dispute_id: dispute.id }]);
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    expect(await creditsOnFile(db(), [alice.id])).toEqual(new Map());
    expect(await invoiceRow(later.id)).toMatchObject({ status: "paid", credit_applied_cents: 5000 });
    const [mail] = await disputeMails();
    expect(mail.text_body).toContain("The other $50.00 was not entered");
  });
});

describe("charge.dispute.funds_withdrawn", () => {
  it("marks the payment disputed when the opening never came, once; no money moves yet", async () => {
    const { invoiceId, paymentIntent } = await paidByCard(8900);
    const dispute = stripe.current.openDispute(paymentIntent.id, { reason: "duplicate" });
    expect((await send(stripe.current.event("charge.dispute.funds_withdrawn", dispute))).status).toBe(200);
    const first = await paymentOf(invoiceId);
    expect(first).toMatchObject({ disputed_at: expect.any(Date), dispute_closed_at: null, reversed_cents: 0 });
    expect((await send(stripe.current.event("charge.dispute.created", dispute))).status).toBe(200);
    expect((await paymentOf(invoiceId)).disputed_at).toEqual(first.disputed_at);
    const row = await db()
      .selectFrom("payments")
      .select("dispute_note")
      .where("id", "=", first.id)
      .executeTakeFirstOrThrow();
    expect(row.dispute_note).toBe("The customer disputed this payment with their bank (duplicate).");
    expect(await reversals()).toEqual([]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900 });
  });
});

describe("an open dispute holds the invoice's charges", () => {
  /** An open invoice a Stripe payment paid $40.00 of, that payment disputed (still open). */
  async function partlyPaidDisputed() {
    await giveCard(db(), stripe.current, alice.id);
    const invoice = await insertOpenInvoice(db(), alice.id, 8900, { issued_on: "2028-03-01", due_on: "2028-03-01" });
    await recordPayment(db(), {
      invoiceId: invoice.id,
      method: "stripe",
      amountCents: 4000,
      paidOn: "2028-03-01",
      note: null,
      recordedBy: null,
      idempotencyKey: "stripe:pi_partly1",
      stripePaymentIntentId: "pi_partly1",
      now: new Date("2028-03-01T18:00:00Z"),
      context: MAIL_CONTEXT,
    });
    const payment = await paymentOf(invoice.id);
    await markPaymentDisputed(
      db(),
      { disputeId: "du_partly1", paymentId: payment.id, status: "needs_response", feeCents: 1500 },
      "The customer disputed this payment with their bank (fraudulent).",
      new Date(),
    );
    return { invoice, payment };
  }

  it("the hourly collection, a new card and Charge make no charge while it is open; once closed they may", async () => {
    const { invoice, payment } = await partlyPaidDisputed();
    const now = new Date("2028-03-02T18:00:00Z");
    await runPaymentCollection({ now, db: db(), context: { ...MAIL_CONTEXT, graceDays: 7 }, stripeConfigured: true });
    expect(stripe.current.posts("/v1/payment_intents")).toEqual([]);
    expect(
      await db()
        .transaction()
        .execute((trx) => markDueForNewCard(trx, alice.id, "2028-03-02")),
    ).toEqual([]);
    expect(await chargeInvoiceOffSession(db(), { invoiceId: invoice.id, attempt: 1, now })).toEqual({
      kind: "disputed",
    });
    await expect(chargeCardNow(db(), { invoiceId: invoice.id, now })).rejects.toThrow(BillingError);
    expect(stripe.current.posts("/v1/payment_intents")).toEqual([]);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "open", paid_cents: 4000 });

    // The dispute closed (won): the invoice is collected as any other.
    await db().updateTable("payments").set({ dispute_closed_at: now }).where("id", "=", payment.id).execute();
    await runPaymentCollection({ now, db: db(), context: { ...MAIL_CONTEXT, graceDays: 7 }, stripeConfigured: true });
    expect(stripe.current.posts("/v1/payment_intents")).toHaveLength(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paid_cents: 8900 });
  });
});

describe("a second dispute of the same payment", () => {
  it("after the first closed (won), holds every charge again while open; lost, it is reversed once", async () => {
    await giveCard(db(), stripe.current, alice.id);
    // An invoice of $89.00 that a $40.00 card payment paid part of (the rest is due).
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const url = await startPayNow(db(), userOf(alice), invoiceId, crypto.randomUUID());
    const { session, paymentIntent } = stripe.current.completePaymentSession(url.split("/").pop() ?? "");
    stripe.current.paymentIntents.get(paymentIntent.id)!.amount = 4000;
    stripe.current.paymentIntents.get(paymentIntent.id)!.amount_received = 4000;
    expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
    await db().updateTable("invoices").set({ due_on: "2028-03-01" }).where("id", "=", invoiceId).execute();
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 4000 });

    // Dispute 1: opened, then won (Stripe gives its fee back with the funds).
    const first = stripe.current.openDispute(paymentIntent.id);
    expect((await send(stripe.current.event("charge.dispute.created", first))).status).toBe(200);
    const won = stripe.current.disputes.get(first.id as string)!;
    won.balance_transactions.push({
      id: "txn_back1",
      amount: 4000,
      fee: -1500,
      reporting_category: "dispute_reversal",
    });
    const firstClose = await closeDispute(first, "won");
    expect(firstClose.response.status).toBe(200);
    expect(await paymentOf(invoiceId)).toMatchObject({ dispute_closed_at: expect.any(Date) });

    // Dispute 2 opened: the hourly collection, a new card and "Charge" hold again.
    const second = stripe.current.openDispute(paymentIntent.id, { reason: "duplicate" });
    expect((await send(stripe.current.event("charge.dispute.created", second))).status).toBe(200);
    expect(await paymentOf(invoiceId)).toMatchObject({ dispute_closed_at: null });
    // Dispute 1's events again, late or replayed: the second stays open.
    expect((await send(stripe.current.event("charge.dispute.created", first))).status).toBe(200);
    expect((await send(firstClose.event)).status).toBe(200);
    expect(await paymentOf(invoiceId)).toMatchObject({ dispute_closed_at: null });
    const now = new Date("2028-03-02T18:00:00Z");
    const before = stripe.current.posts("/v1/payment_intents").length;
    await runPaymentCollection({ now, db: db(), context: { ...MAIL_CONTEXT, graceDays: 7 }, stripeConfigured: true });
    expect(
      await db()
        .transaction()
        .execute((trx) => markDueForNewCard(trx, alice.id, "2028-03-02")),
    ).toEqual([]);
    expect(await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now })).toEqual({ kind: "disputed" });
    await expect(chargeCardNow(db(), { invoiceId, now })).rejects.toThrow(BillingError);
    expect(stripe.current.posts("/v1/payment_intents")).toHaveLength(before);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 4000 });

    // Dispute 2 lost: the $40.00 is owed again, once, however often Stripe says so.
    const secondClose = await closeDispute(second, "lost");
    expect(secondClose.response.status).toBe(200);
    expect((await send(secondClose.event)).status).toBe(200);
    expect(await reversals()).toEqual([{ kind: "dispute_lost", amount_cents: 4000, stripe_dispute_id: second.id }]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 0 });
    expect(await ledgerSum(db(), alice.id)).toBe(8900);
    expect(await disputeMails()).toHaveLength(1);
    expect(await paymentOf(invoiceId)).toMatchObject({ reversed_cents: 4000, dispute_closed_at: expect.any(Date) });

    // The fees: dispute 1's given back (net $0.00), dispute 2's kept ($15.00), neither on the ledger.
    const fees = await db()
      .selectFrom("payment_disputes")
      .select(["stripe_dispute_id", "status", "fee_cents"])
      .orderBy("opened_at")
      .orderBy("stripe_dispute_id")
      .execute();
    expect(new Map(fees.map((row) => [row.stripe_dispute_id, [row.status, row.fee_cents]]))).toEqual(
      new Map([
        [first.id, ["won", 0]],
        [second.id, ["lost", 1500]],
      ]),
    );
    const tab = await loadBillingTab(new URL(`http://x/admin-dashboard/billing?status=${DISPUTES_LOST}`));
    expect(tab.disputesLost?.items).toEqual([expect.objectContaining({ disputeId: second.id, fee: "$15.00" })]);
  });

  it("the fee is stored when the dispute opens, from its balance transactions", async () => {
    const { invoiceId, paymentIntent } = await paidByCard(8900);
    const dispute = stripe.current.openDispute(paymentIntent.id, { fee: 2000 });
    expect((await send(stripe.current.event("charge.dispute.funds_withdrawn", dispute))).status).toBe(200);
    expect(await db().selectFrom("payment_disputes").select(["status", "fee_cents", "closed_at"]).execute()).toEqual([
      { status: "needs_response", fee_cents: 2000, closed_at: null },
    ]);
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900 });
  });
});
