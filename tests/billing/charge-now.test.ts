import { describe, expect, it, beforeAll } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { createOpenInvoice, giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { chargeKeyFor } from "~/features/billing/stripe-charge.server";
import * as adminInvoice from "~/routes/admin-dashboard.billing.$invoiceId";

/**
 * The admin's "Charge <balance>" on an open invoice (docs/decisions/107), through the route and
 * the local stand-in of Stripe's API: the card on file is charged now as the collection job's next
 * attempt; a decline is recorded and the customer told; what cannot be charged says why and
 * stores nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

let admin: TestUser;
let alice: TestUser;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  alice = await createUser(db(), { fullName: "Alice Able" });
  cookies.admin = await sessionCookieFor(admin.id);
  cookies.alice = await sessionCookieFor(alice.id);
});

const page = async (invoiceId: string) =>
  (
    await callRoute(adminInvoice.loader, `/admin-dashboard/billing/${invoiceId}`, {
      cookie: cookies.admin,
      params: { invoiceId },
    })
  ).json();
const charge = (invoiceId: string, cookie = cookies.admin) =>
  callRoute(adminInvoice.action, `/admin-dashboard/billing/${invoiceId}`, {
    cookie,
    params: { invoiceId },
    form: { intent: "charge-card" },
  });
const invoiceRow = (id: string) =>
  db().selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const paymentsOf = (id: string) =>
  db().selectFrom("payments").select(["amount_cents", "method"]).where("invoice_id", "=", id).execute();
const failureMail = (id: string) =>
  db()
    .selectFrom("outbox")
    .select("dedupe_key")
    .where("related_id", "=", id)
    .where("kind", "=", "payment_failed")
    .execute();
const intents = () => stripe.current.posts("/v1/payment_intents");
const refusal = async (response: Response) => ((await response.json()) as { toast: { description: string } }).toast;

describe("Charge the card on file", () => {
  it("charges the balance now as the next attempt, once for two presses at once; then the invoice is paid", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    await giveCard(db(), stripe.current, alice.id);
    expect(await page(invoiceId)).toMatchObject({ card: "Visa ending 4242, expires 04/2030" });

    const [first, second] = await Promise.all([charge(invoiceId), charge(invoiceId)]);
    const statuses = [first.status, second.status];
    expect(statuses).toContain(302);
    const success = first.status === 302 ? first : second;
    expect(await toastOf(success)).toMatchObject({ type: "success", description: "Card charged" });
    expect(intents().map((request) => request.idempotencyKey)).toEqual(
      intents().map(() => chargeKeyFor(invoiceId, 1, 8900)),
    );
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", paid_cents: 8900, charge_attempts: 1 });
    expect(await paymentsOf(invoiceId)).toEqual([{ amount_cents: 8900, method: "stripe" }]);
    expect(await failureMail(invoiceId)).toEqual([]);

    // Paid: no button, and a late press charges nothing.
    expect((await page(invoiceId)).card).toBeNull();
    const late = await charge(invoiceId);
    expect(late.status).toBe(409);
    expect((await refusal(late)).description).toBe("Only an open invoice can take a payment.");
    expect(await paymentsOf(invoiceId)).toHaveLength(1);
  });

  it("a decline says why, is recorded as the next attempt and e-mailed; the invoice stays open", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 4500);
    const { customerId } = await giveCard(db(), stripe.current, alice.id);
    stripe.current.outcomes.set(customerId, "insufficient_funds");
    const declined = await charge(invoiceId);
    expect(declined.status).toBe(409);
    expect((await refusal(declined)).description).toBe("The card was declined: Your card has insufficient funds.");
    expect(await invoiceRow(invoiceId)).toMatchObject({
      status: "open",
      paid_cents: 0,
      charge_attempts: 1,
      last_failure_reason: "Your card has insufficient funds.",
    });
    expect(await paymentsOf(invoiceId)).toEqual([]);
    expect(await failureMail(invoiceId)).toEqual([{ dedupe_key: `payment-failed:${invoiceId}:1` }]);

    // Pressed again once the money is there: the second attempt pays.
    stripe.current.outcomes.set(customerId, "succeeded");
    expect((await charge(invoiceId)).status).toBe(302);
    expect(intents().map((request) => request.idempotencyKey)).toEqual([
      chargeKeyFor(invoiceId, 1, 4500),
      chargeKeyFor(invoiceId, 2, 4500),
    ]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "paid", charge_attempts: 2 });
  });

  it("without a card, for a customer, with Stripe out of reach or without Stripe: nothing is charged or stored", async () => {
    const invoiceId = await createOpenInvoice(db(), alice.id, 3000);
    expect((await page(invoiceId)).card).toBeNull();
    const noCard = await charge(invoiceId);
    expect(noCard.status).toBe(409);
    expect((await refusal(noCard)).description).toBe("This customer has no card on file.");

    await giveCard(db(), stripe.current, alice.id);
    // A customer posting the admin's form is sent away with "Access Denied" before anything runs.
    const byCustomer = await charge(invoiceId, cookies.alice).catch((error: unknown) => error as Response);
    expect(locationOf(byCustomer)).toBe("/customer-dashboard");
    expect(await toastOf(byCustomer)).toMatchObject({ type: "error", message: "Access Denied" });

    // Stripe out of reach: nothing charged, counted or recorded; the admin is told to try again.
    useStripe(stripe.current, { STRIPE_API_BASE_URL: "http://127.0.0.1:9" });
    const unreachable = await charge(invoiceId);
    expect(unreachable.status).toBe(409);
    expect((await refusal(unreachable)).description).toBe(
      "We could not reach Stripe. Nothing was charged; please try again.",
    );

    useStripe(null);
    expect((await page(invoiceId)).card).toBeNull();
    const off = await charge(invoiceId);
    expect(off.status).toBe(409);
    expect((await refusal(off)).description).toBe("Card payments are not set up.");

    expect(intents()).toEqual([]);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", charge_attempts: 0, last_failed_at: null });
    expect(await paymentsOf(invoiceId)).toEqual([]);
  });

  it("after a charge the bank is still processing, 'Charge' is refused with why and makes no second PaymentIntent", async () => {
    // Issue 34: "Charge" after a "processing" attempt made a second PaymentIntent for the same balance.
    const { customerId } = await giveCard(db(), stripe.current, alice.id);
    stripe.current.outcomes.set(customerId, "processing");
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    const first = await charge(invoiceId);
    expect(await toastOf(first)).toMatchObject({
      type: "success",
      description: "Card charged: the bank is still processing it",
    });
    const again = await charge(invoiceId);
    expect(again.status).toBe(409);
    expect((await refusal(again)).description).toBe(
      "A card payment of this invoice is still processing at the bank. Nothing new was charged; its result shows here when the bank answers.",
    );
    expect(intents()).toHaveLength(1);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 0, charge_attempts: 1 });
    expect(await paymentsOf(invoiceId)).toEqual([]);
    expect(await failureMail(invoiceId)).toEqual([]);
  });

  it("a charge key Stripe holds for an earlier request is refused as such, nothing charged again or recorded", async () => {
    const { customerId } = await giveCard(db(), stripe.current, alice.id);
    const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
    // The attempt reached Stripe with the card then on file; its answer was lost, and the card changed since.
    const earlier = stripe.current.addPaymentMethod({ brand: "visa", last4: "0005", expMonth: 2, expYear: 2031 });
    const lost = await fetch(`${stripe.current.url}/v1/payment_intents`, {
      method: "POST",
      headers: {
        "Idempotency-Key": chargeKeyFor(invoiceId, 1, 8900),
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ amount: "8900", currency: "usd", customer: customerId, payment_method: earlier.id }),
    });
    expect(lost.status).toBe(200);
    const response = await charge(invoiceId);
    expect(response.status).toBe(409);
    expect((await refusal(response)).description).toBe(
      "Stripe has an earlier charge of this invoice that we have not heard back about. Nothing new was charged; check the invoice's payments in Stripe before trying again.",
    );
    expect(stripe.current.paymentIntents.size).toBe(1);
    expect(await invoiceRow(invoiceId)).toMatchObject({ status: "open", paid_cents: 0, charge_attempts: 0 });
    expect(await paymentsOf(invoiceId)).toEqual([]);
    expect(await failureMail(invoiceId)).toEqual([]);
  });
});
