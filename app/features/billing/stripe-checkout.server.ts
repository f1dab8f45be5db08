import { brandLabel } from "./card-brands";
import { BillingError } from "./payments.server";
import { expireStaleCheckouts } from "./stripe-checkout-expiry.server";
import { CURRENCY, syncStripeIntent } from "./stripe-payments.server";
import { businessToday } from "~/features/visits/visit-dates";
import { markDueForNewCard, type InvoiceDueNow } from "~/models/invoice-collection.server";
import { getCustomerInvoice } from "~/models/invoice.server";
import {
  findUserByStripeCustomer,
  getStripeCustomer,
  insertCheckoutSession,
  insertStripeCustomer,
  setCardOnFile,
  setCheckoutSessionIntent,
} from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { stripeClient, type Stripe } from "~/utils/stripe.server";

/**
 * Stripe Checkout for the customer's Billing page (docs/decisions/103): "Add a card" / "Update
 * card" (setup mode) and "Pay now" (payment mode). The card is typed on Stripe's page and stays
 * at Stripe; the app keeps its brand, last 4 and expiry. Each session is made with an idempotency
 * key from the page's form, so a double press opens one session; what it did is read back from
 * Stripe on the way back and again from the webhook, whichever comes first.
 */

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);
const siteUrl = (path: string) => new URL(path, getEnv().SITE_URL).href;

export const BILLING_PATH = "/customer-dashboard/billing";

/** The user's Stripe customer, made once (a second press or tab finds the first). */
export async function ensureStripeCustomer(db: Db, user: { id: string; email: string; fullName: string | null }) {
  const known = await getStripeCustomer(db, user.id);
  if (known) return known.stripe_customer_id;
  const stripe = await stripeClient();
  const customer = await stripe.customers.create(
    { email: user.email, name: user.fullName ?? undefined, metadata: { user_id: user.id } },
    { idempotencyKey: `customer:${user.id}` },
  );
  const row = await insertStripeCustomer(db, user.id, customer.id);
  return row?.stripe_customer_id ?? customer.id;
}

/** "Add a card" / "Update card": a Checkout session in setup mode; returns its URL. */
export async function startCardSetup(
  db: Db,
  user: { id: string; email: string; fullName: string | null },
  formKey: string,
) {
  const customer = await ensureStripeCustomer(db, user);
  const stripe = await stripeClient();
  const session = await stripe.checkout.sessions.create(
    {
      mode: "setup",
      customer,
      // Setup mode offers the account's payment methods for this currency (the Dashboard's settings).
      currency: CURRENCY,
      metadata: { user_id: user.id },
      setup_intent_data: { metadata: { user_id: user.id } },
      success_url: `${siteUrl(BILLING_PATH)}?card_session={CHECKOUT_SESSION_ID}`,
      cancel_url: siteUrl(BILLING_PATH),
    },
    { idempotencyKey: `card-setup:${user.id}:${formKey}` },
  );
  if (!session.url) throw new Error("Stripe gave no Checkout URL");
  return session.url;
}

/** "Pay now": a Checkout session in payment mode for the invoice's balance; returns its URL. */
export async function startPayNow(
  db: Db,
  user: { id: string; email: string; fullName: string | null },
  invoiceId: string,
  formKey: string,
) {
  const invoice = await getCustomerInvoice(db, invoiceId, user.id);
  if (!invoice || invoice.status === "draft") throw new BillingError("We could not find that invoice.", 404);
  const balance = invoice.total_cents - invoice.paid_cents;
  if (invoice.status !== "open" || balance <= 0) throw new BillingError("This invoice has nothing left to pay.", 409);
  const customer = await ensureStripeCustomer(db, user);
  const stripe = await stripeClient();
  const metadata = { invoice_id: invoice.id, customer_id: user.id };
  const invoicePath = `${BILLING_PATH}/${invoice.id}`;
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      customer,
      line_items: [
        {
          quantity: 1,
          price_data: { currency: CURRENCY, unit_amount: balance, product_data: { name: `Invoice ${invoice.number}` } },
        },
      ],
      metadata,
      payment_intent_data: { metadata, description: `Invoice ${invoice.number}` },
      success_url: `${siteUrl(invoicePath)}?paid_session={CHECKOUT_SESSION_ID}`,
      cancel_url: siteUrl(invoicePath),
    },
    // Per invoice, balance and page: a double press is one session; a new balance a new one.
    { idempotencyKey: `pay-now:${invoice.id}:${balance}:${formKey}` },
  );
  if (!session.url) throw new Error("Stripe gave no Checkout URL");
  // Kept before the invoice is read again, as a settling payment is committed before it reads
  // the sessions: of the two, at least one sees the other (docs/decisions/111).
  await insertCheckoutSession(db, { id: session.id, invoiceId: invoice.id, amountCents: balance });
  const current = await getCustomerInvoice(db, invoice.id, user.id);
  if (!current || current.status !== "open" || current.total_cents - current.paid_cents !== balance) {
    await expireStaleCheckouts(db, invoice.id, new Date());
    throw new BillingError("This invoice's balance just changed. Please look at it again.", 409);
  }
  return session.url;
}

/**
 * Stores the card a succeeded SetupIntent saved and makes it the customer's default at Stripe,
 * unless the intent is for a customer the app does not know (another account) or a newer card
 * is on file already (events out of order). When it is another card than the one on file, the
 * customer's invoices due by today are marked in the same transaction for a try today and
 * returned in `due`: the caller charges them (new-card-charge.server.ts, docs/decisions/107).
 */
export async function syncSetupIntent(db: Db, setupIntent: Stripe.SetupIntent, now: Date): Promise<SetupSynced> {
  const nothing: SetupSynced = { stored: false, due: [] };
  if (setupIntent.status !== "succeeded") return nothing;
  const customerId = idOf(setupIntent.customer);
  const paymentMethodId = idOf(setupIntent.payment_method);
  if (!customerId || !paymentMethodId) return nothing;
  const known = await findUserByStripeCustomer(db, customerId);
  if (!known) {
    log.warn("stripe.setup_unmatched", { setupIntentId: setupIntent.id });
    return nothing;
  }
  const stripe = await stripeClient();
  const method = await stripe.paymentMethods.retrieve(paymentMethodId);
  if (method.type !== "card" || !method.card) return nothing;
  const card = {
    paymentMethodId: method.id,
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
    addedAt: new Date(setupIntent.created * 1000),
  };
  const synced = await db.transaction().execute(async (trx) => {
    const { stored, changed } = await setCardOnFile(trx, customerId, card, now);
    return { stored, due: changed ? await markDueForNewCard(trx, known.user_id, businessToday(now)) : [] };
  });
  if (synced.stored) {
    await stripe.customers.update(
      customerId,
      { invoice_settings: { default_payment_method: method.id } },
      { idempotencyKey: `default-card:${setupIntent.id}` },
    );
  }
  return synced;
}

export type SetupSynced = { stored: boolean; due: InvoiceDueNow[] };

/**
 * A completed setup session (the way back from Checkout, or its webhook): its card is stored.
 * Null for a session that is not a completed setup of this user's.
 */
export async function syncSetupSession(db: Db, sessionId: string, now: Date, userId?: string) {
  const stripe = await stripeClient();
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  if (session.mode !== "setup" || session.status !== "complete") return null;
  if (userId !== undefined) {
    const mine = await getStripeCustomer(db, userId);
    if (!mine || mine.stripe_customer_id !== idOf(session.customer)) return null;
  }
  const setupIntentId = idOf(session.setup_intent);
  if (!setupIntentId) return null;
  const setupIntent = await stripe.setupIntents.retrieve(setupIntentId);
  return syncSetupIntent(db, setupIntent, now);
}

/** A completed payment session: its PaymentIntent is recorded if it succeeded (once). */
export async function syncPaymentSession(db: Db, sessionId: string, now: Date, userId?: string) {
  const stripe = await stripeClient();
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  if (session.mode !== "payment") return "unmatched" as const;
  if (userId !== undefined) {
    const mine = await getStripeCustomer(db, userId);
    if (!mine || mine.stripe_customer_id !== idOf(session.customer)) return "unmatched" as const;
  }
  const paymentIntentId = idOf(session.payment_intent);
  if (!paymentIntentId) return "not_succeeded" as const;
  const { intent, recorded } = await syncStripeIntent(db, paymentIntentId, now);
  // A debit still at the bank holds the invoice's other charges until it answers (111).
  if (session.status === "complete") {
    await setCheckoutSessionIntent(db, session.id, intent.id, intent.status === "processing", now);
  }
  return recorded;
}

/** What the Billing page shows of the card on file ("Visa ending 4242, expires 04/2030"). */
export async function cardOnFile(db: Db, userId: string) {
  const row = await getStripeCustomer(db, userId);
  if (!row?.card_last4 || !row.card_brand || !row.card_exp_month || !row.card_exp_year) return null;
  return `${brandLabel(row.card_brand)} ending ${row.card_last4}, expires ${String(row.card_exp_month).padStart(2, "0")}/${row.card_exp_year}`;
}
