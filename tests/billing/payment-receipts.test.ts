import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, type TestUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";
import { STRIPE_TEST_ENV, createOpenInvoice, giveCard, useStripeStandIn } from "../helpers/stripe-billing";
import { getSiteSettings } from "~/content/content.server";
import { BillingError, recordPayment, recordRefund } from "~/features/billing/payments.server";
import { chargeInvoiceOffSession } from "~/features/billing/stripe-charge.server";
import { startPayNow } from "~/features/billing/stripe-checkout.server";
import * as webhook from "~/routes/resources.webhooks.stripe";

/**
 * The receipt of every payment recorded (docs/decisions/106): by hand, by the off-session charge
 * and its webhook, by "Pay now"; once per payment whatever repeats; none for a refund or a
 * payment refused. The invoices are the helpers' (issued 2028-03-01, due that day).
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

let alice: TestUser;
beforeAll(async () => {
  alice = await createUser(db(), { fullName: "Alice Able" });
});

const receiptsOf = (invoiceId: string) =>
  db()
    .selectFrom("outbox")
    .select(["kind", "to_address", "subject", "text_body", "html_body", "dedupe_key"])
    .where("related_id", "=", invoiceId)
    .where("kind", "=", "payment_receipt")
    .orderBy("created_at")
    .execute();
const paymentsOf = (invoiceId: string) =>
  db()
    .selectFrom("payments")
    .select(["id", "method", "amount_cents"])
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .execute();
const numberOf = async (invoiceId: string) =>
  (await db().selectFrom("invoices").select("number").where("id", "=", invoiceId).executeTakeFirstOrThrow()).number;

const byHand = (invoiceId: string, fields: { method: "cash" | "check"; amountCents: number; key: string }) =>
  recordPayment(db(), {
    invoiceId,
    method: fields.method,
    amountCents: fields.amountCents,
    paidOn: "2028-03-04",
    note: null,
    recordedBy: null,
    idempotencyKey: fields.key,
    now: new Date("2028-03-04T18:00:00Z"),
  });

function sign(payload: string) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET });
}
const send = (event: object) => {
  const payload = JSON.stringify(event);
  return callRoute(webhook.action, "/resources/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": sign(payload) },
  });
};

describe("the payment receipt", () => {
  it("a payment by hand queues one receipt (amount, method, date, invoice, still owed); a repeated form key none", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const number = await numberOf(invoiceId);
    const settings = await getSiteSettings();

    expect(await byHand(invoiceId, { method: "cash", amountCents: 5000, key: "receipt-cash-1" })).toEqual({
      repeated: false,
    });
    const [payment] = await paymentsOf(invoiceId);
    const [receipt, ...more] = await receiptsOf(invoiceId);
    expect(more).toEqual([]);
    expect(receipt).toMatchObject({
      to_address: alice.email,
      subject: `Payment received for invoice ${number}`,
      dedupe_key: `payment-receipt:${payment.id}`,
    });
    expect(receipt.text_body).toContain(
      [
        "Thank you: we received your payment.",
        `Amount: $50.00\nMethod: Cash\nDate: March 4, 2028\nInvoice: ${number}\nStill owed on this invoice: $39.00`,
        `See your invoice: https://yards.example.com/customer-dashboard/billing/${invoiceId}`,
      ].join("\n\n"),
    );
    // The business's words come from the content, not the code.
    expect(receipt.text_body).toContain(`Call us at ${settings.phone}`);
    expect(receipt.text_body.endsWith(settings.businessName)).toBe(true);
    expect(receipt.html_body).toContain("Amount: $50.00<br>Method: Cash<br>");

    // A double press: the same key records nothing and sends nothing.
    expect(await byHand(invoiceId, { method: "cash", amountCents: 5000, key: "receipt-cash-1" })).toEqual({
      repeated: true,
    });
    expect(await receiptsOf(invoiceId)).toHaveLength(1);

    await byHand(invoiceId, { method: "check", amountCents: 3900, key: "receipt-check-2" });
    const receipts = await receiptsOf(invoiceId);
    expect(receipts).toHaveLength(2);
    const last = receipts.find((r) => r.text_body.includes("Method: Check"))!;
    expect(last.text_body).toContain(
      `Amount: $39.00\nMethod: Check\nDate: March 4, 2028\nInvoice: ${number}\nPaid in full`,
    );
    expect(last.text_body).not.toContain("Still owed");
  });

  it("a payment over the balance is refused: no payment and no receipt", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    await expect(byHand(invoiceId, { method: "cash", amountCents: 9000, key: "receipt-over" })).rejects.toThrow(
      BillingError,
    );
    expect(await paymentsOf(invoiceId)).toEqual([]);
    expect(await db().selectFrom("outbox").select("id").where("related_id", "=", invoiceId).execute()).toEqual([]);
  });

  it("a refund sends no receipt", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    await byHand(invoiceId, { method: "cash", amountCents: 8900, key: "receipt-refunded" });
    const [payment] = await paymentsOf(invoiceId);
    expect(await receiptsOf(invoiceId)).toHaveLength(1);
    const refund = await recordRefund(db(), {
      invoiceId,
      paymentId: payment.id,
      amountCents: 2000,
      refundedOn: "2028-03-05",
      note: null,
      recordedBy: null,
      idempotencyKey: "receipt-refund-1",
      now: new Date("2028-03-05T18:00:00Z"),
    });
    expect(refund).toEqual({ repeated: false });
    expect(await receiptsOf(invoiceId)).toHaveLength(1);
    expect(await db().selectFrom("outbox").select("kind").where("related_id", "=", invoiceId).execute()).toEqual([
      { kind: "payment_receipt" },
    ]);
  });

  it("the off-session charge and its webhook both report the payment: one receipt, naming the card", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    await giveCard(db(), stripe.current, alice.id);
    const charged = await chargeInvoiceOffSession(db(), {
      invoiceId,
      attempt: 1,
      now: new Date("2028-03-01T18:00:00Z"),
    });
    expect(charged.kind).toBe("succeeded");
    const intent = stripe.current.paymentIntents.get((charged as { paymentIntentId: string }).paymentIntentId)!;
    const response = await send(stripe.current.event("payment_intent.succeeded", intent));
    expect(response.status).toBe(200);
    // And Stripe's retry of the same event.
    expect((await send(stripe.current.event("payment_intent.succeeded", intent))).status).toBe(200);

    const payments = await paymentsOf(invoiceId);
    expect(payments).toMatchObject([{ method: "stripe", amount_cents: 8900 }]);
    const receipts = await receiptsOf(invoiceId);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ to_address: alice.email, dedupe_key: `payment-receipt:${payments[0].id}` });
    expect(receipts[0].text_body).toContain(
      `Amount: $89.00\nMethod: Visa ending 4242\nDate: March 1, 2028\nInvoice: ${await numberOf(invoiceId)}\nPaid in full`,
    );
  });

  it("'Pay now' with another card than the one on file: its webhooks queue one receipt naming the card paid with", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 4500);
    await giveCard(db(), stripe.current, alice.id);
    const url = await startPayNow(
      db(),
      { id: alice.id, email: alice.email, fullName: "Alice Able" },
      invoiceId,
      crypto.randomUUID(),
    );
    const other = stripe.current.addPaymentMethod({ brand: "mastercard", last4: "4444", expMonth: 1, expYear: 2031 });
    const { session, paymentIntent } = stripe.current.completePaymentSession(url.split("/").pop()!, other.id as string);
    expect((await send(stripe.current.event("checkout.session.completed", session))).status).toBe(200);
    expect((await send(stripe.current.event("payment_intent.succeeded", paymentIntent))).status).toBe(200);

    expect(await paymentsOf(invoiceId)).toHaveLength(1);
    const receipts = await receiptsOf(invoiceId);
    expect(receipts).toHaveLength(1);
    expect(receipts[0].text_body).toContain("Amount: $45.00\nMethod: Mastercard ending 4444\n");
    expect(receipts[0].text_body).toContain("Paid in full");
  });
});
