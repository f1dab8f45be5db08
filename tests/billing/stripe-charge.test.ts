import { beforeAll, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, type TestUser } from "../helpers/factories";
import { createOpenInvoice, giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { chargeInvoiceOffSession } from "~/features/billing/stripe-charge.server";
import { log } from "~/utils/logger.server";

/**
 * The off-session charge (issue 27 step 3, docs/decisions/103) against the local stand-in of
 * Stripe's API, through the stripe package: the idempotency key per invoice, attempt and amount, a
 * success paying the invoice once, a decline storing nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);
const NOW = new Date("2028-03-05T17:00:00Z");

let carla: TestUser;

beforeAll(async () => {
  carla = await createUser(db(), { fullName: "Carla Card" });
});

const invoiceRow = (id: string) =>
  db().selectFrom("invoices").select(["status", "paid_cents"]).where("id", "=", id).executeTakeFirstOrThrow();
const payments = (invoiceId: string) =>
  db().selectFrom("payments").selectAll().where("invoice_id", "=", invoiceId).execute();

describe("chargeInvoiceOffSession", () => {
  it("charges the balance off-session with the key per invoice and attempt, and pays the invoice once", async () => {
    const { customerId, paymentMethodId } = await giveCard(db(), stripe.current, carla.id);
    const invoiceId = await createOpenInvoice(db(), carla.id, 8900);

    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(outcome.kind).toBe("succeeded");
    const [request] = stripe.current.posts("/v1/payment_intents");
    expect(request.idempotencyKey).toBe(`invoice:${invoiceId}:attempt:1:amount:8900`);
    expect(request.params).toMatchObject({
      amount: "8900",
      currency: "usd",
      customer: customerId,
      payment_method: paymentMethodId,
      off_session: "true",
      confirm: "true",
      "metadata[invoice_id]": invoiceId,
      "metadata[customer_id]": carla.id,
    });
    expect(await invoiceRow(invoiceId)).toEqual({ status: "paid", paid_cents: 8900 });
    const [payment] = await payments(invoiceId);
    expect(payment).toMatchObject({ method: "stripe", amount_cents: 8900 });
    expect(payment.stripe_payment_intent_id).toBe(outcome.kind === "succeeded" ? outcome.paymentIntentId : "");
    expect(await db().selectFrom("stripe_payment_failures").selectAll().execute()).toEqual([]);
  });

  it("the same attempt again is the same charge at Stripe and no second payment", async () => {
    await giveCard(db(), stripe.current, carla.id);
    const invoiceId = await createOpenInvoice(db(), carla.id, 5000);
    const first = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 2, now: NOW });
    expect(first.kind).toBe("succeeded");
    // The invoice is paid now; a crashed job re-running the attempt would be refused before Stripe.
    await expect(chargeInvoiceOffSession(db(), { invoiceId, attempt: 2, now: NOW })).rejects.toThrow(/open invoice/);
    expect(stripe.current.posts("/v1/payment_intents")).toHaveLength(1);
    expect(stripe.current.paymentIntents.size).toBe(1);
    expect(await payments(invoiceId)).toHaveLength(1);
  });

  it("a decline returns the card's message and stores nothing", async () => {
    const { paymentMethodId } = await giveCard(db(), stripe.current, carla.id);
    stripe.current.outcomes.set(paymentMethodId, "insufficient_funds");
    const invoiceId = await createOpenInvoice(db(), carla.id, 8900);

    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(outcome).toEqual({
      kind: "failed",
      reason: "Your card has insufficient funds.",
      paymentIntentId: [...stripe.current.paymentIntents.keys()][0],
    });
    expect(await invoiceRow(invoiceId)).toEqual({ status: "open", paid_cents: 0 });
    expect(await payments(invoiceId)).toEqual([]);
    expect(await db().selectFrom("stripe_payment_failures").selectAll().execute()).toEqual([]);

    // The same attempt again: Stripe answers the first decline again (one intent, no new charge).
    const again = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(again).toEqual(outcome);
    expect(stripe.current.paymentIntents.size).toBe(1);

    // The next attempt has its own key: a new charge at Stripe.
    stripe.current.outcomes.delete(paymentMethodId);
    const retry = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 2, now: NOW });
    expect(retry.kind).toBe("succeeded");
    expect(stripe.current.posts("/v1/payment_intents").map((r) => r.idempotencyKey)).toEqual([
      `invoice:${invoiceId}:attempt:1:amount:8900`,
      `invoice:${invoiceId}:attempt:1:amount:8900`,
      `invoice:${invoiceId}:attempt:2:amount:8900`,
    ]);
    expect(await invoiceRow(invoiceId)).toEqual({ status: "paid", paid_cents: 8900 });
  });

  it("processing is reported and recorded by the webhook later, not now", async () => {
    const { paymentMethodId } = await giveCard(db(), stripe.current, carla.id);
    stripe.current.outcomes.set(paymentMethodId, "processing");
    const invoiceId = await createOpenInvoice(db(), carla.id);
    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(outcome.kind).toBe("processing");
    expect(await payments(invoiceId)).toEqual([]);
  });

  it("without a card, or without Stripe, nothing is sent", async () => {
    const invoiceId = await createOpenInvoice(db(), carla.id);
    expect(await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW })).toEqual({ kind: "no_card" });
    useStripe(null);
    expect(await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW })).toEqual({
      kind: "not_configured",
    });
    expect(stripe.current.requests).toEqual([]);
    expect(await payments(invoiceId)).toEqual([]);
  });

  it("a card Stripe no longer has is a failure in words for the customer, nothing stored", async () => {
    await giveCard(db(), stripe.current, carla.id);
    await db().updateTable("stripe_customers").set({ payment_method_id: "pm_removedcard" }).execute();
    const invoiceId = await createOpenInvoice(db(), carla.id);
    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(outcome).toEqual({
      kind: "failed",
      reason: "The card on file can no longer be charged.",
      paymentIntentId: null,
    });
    expect(await payments(invoiceId)).toEqual([]);
  });

  it("Stripe unreachable is a failure without an intent, nothing stored", async () => {
    await giveCard(db(), stripe.current, carla.id);
    const invoiceId = await createOpenInvoice(db(), carla.id);
    useStripe(stripe.current, { STRIPE_API_BASE_URL: "http://127.0.0.1:9" });
    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(outcome).toEqual({
      kind: "failed",
      reason: "We could not reach Stripe to charge the card.",
      paymentIntentId: null,
    });
    expect(await payments(invoiceId)).toEqual([]);
  });

  it("the same attempt for a changed balance is its own charge at Stripe, not a reused key", async () => {
    // Issue 34: the attempt's key without the amount made Stripe answer idempotency_error, read as "unreachable".
    const { paymentMethodId } = await giveCard(db(), stripe.current, carla.id);
    stripe.current.outcomes.set(paymentMethodId, "card_declined");
    const invoiceId = await createOpenInvoice(db(), carla.id, 8900);
    expect((await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW })).kind).toBe("failed");
    // $20 paid by hand before the same attempt is made again (a re-run after its answer was lost).
    await db().updateTable("invoices").set({ paid_cents: 2000 }).where("id", "=", invoiceId).execute();
    stripe.current.outcomes.delete(paymentMethodId);
    const again = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(again.kind).toBe("succeeded");
    expect(stripe.current.posts("/v1/payment_intents").map((r) => [r.idempotencyKey, r.params.amount])).toEqual([
      [`invoice:${invoiceId}:attempt:1:amount:8900`, "8900"],
      [`invoice:${invoiceId}:attempt:1:amount:6900`, "6900"],
    ]);
    expect(await invoiceRow(invoiceId)).toEqual({ status: "paid", paid_cents: 8900 });
  });

  it("a key Stripe refuses as reused is a key conflict, logged, not 'unreachable', and nothing is stored", async () => {
    const { paymentMethodId } = await giveCard(db(), stripe.current, carla.id);
    stripe.current.outcomes.set(paymentMethodId, "processing");
    const invoiceId = await createOpenInvoice(db(), carla.id, 8900);
    expect((await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW })).kind).toBe("processing");
    // Another card on file, same invoice, attempt and amount: Stripe has the key with other parameters.
    const other = stripe.current.addPaymentMethod({ brand: "visa", last4: "1881", expMonth: 1, expYear: 2032 });
    await db().updateTable("stripe_customers").set({ payment_method_id: other.id }).execute();
    const error = vi.spyOn(log, "error");
    const outcome = await chargeInvoiceOffSession(db(), { invoiceId, attempt: 1, now: NOW });
    expect(outcome).toEqual({ kind: "key_conflict" });
    expect(error).toHaveBeenCalledWith("stripe.charge_key_conflict", expect.objectContaining({ invoiceId }));
    error.mockRestore();
    expect(stripe.current.paymentIntents.size).toBe(1);
    expect(await payments(invoiceId)).toEqual([]);
    expect(await invoiceRow(invoiceId)).toEqual({ status: "open", paid_cents: 0 });
  });
});
