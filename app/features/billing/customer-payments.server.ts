import { redirect } from "@remix-run/node";
import { formatCents } from "./money";
import { chargeNewCard, type NewCardCharge } from "./new-card-charge.server";
import { BillingError } from "./payments.server";
import {
  BILLING_PATH,
  startCardSetup,
  startPayNow,
  syncPaymentSession,
  syncSetupSession,
} from "./stripe-checkout.server";
import { getDb } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { isStripeConfigured } from "~/utils/stripe.server";
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from "~/utils/toast.server";
import { isUuid } from "~/utils/uuid";

/**
 * The customer's "Add a card" / "Update card" and "Pay now" forms, and the way back from Stripe
 * Checkout (docs/decisions/103). The route has checked who is signed in; an invoice is this
 * customer's or a 404. Without Stripe the forms are not shown and a post is refused.
 */
type Customer = { id: string; email: string; fullName: string | null };

const CHECKOUT_SESSION = /^cs_[0-9A-Za-z_]{1,200}$/;
const UNAVAILABLE = "Card payments are not available right now. Please try again later or call us.";

/** A form's post: 303 to Stripe's Checkout page, or back with a message. */
export async function handleCustomerBillingAction(formData: FormData, user: Customer, back: string): Promise<Response> {
  const intent = formData.get("intent");
  const key = String(formData.get("key") ?? "");
  if ((intent !== "add-card" && intent !== "pay-now") || !isUuid(key)) {
    throw new Response("Unknown action", { status: 400 });
  }
  if (!isStripeConfigured()) throw new Response("Card payments are not set up", { status: 404 });
  const db = await getDb();
  try {
    if (intent === "add-card") return redirect(await startCardSetup(db, user, key), 303);
    const invoiceId = String(formData.get("invoiceId") ?? "");
    if (!isUuid(invoiceId)) throw new Response("Invoice not found", { status: 404 });
    return redirect(await startPayNow(db, user, invoiceId, key), 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof BillingError) {
      if (error.status === 404) throw new Response("Invoice not found", { status: 404 });
      return redirectWithError(back, { message: "Nothing to pay", description: error.message }, { status: 303 });
    }
    log.error("stripe.checkout_failed", { intent, userId: user.id, ...errorFields(error) });
    return redirectWithError(back, { message: "Error", description: UNAVAILABLE }, { status: 303 });
  }
}

/**
 * The way back from Checkout (`?card_session=` or `?paid_session=`): what the session did is read
 * from Stripe and stored, as its webhook would (whichever comes first, once), then the clean
 * page. A session of someone else, or a made-up id, stores nothing. Null without such a parameter.
 */
export async function handleCheckoutReturn(url: URL, user: Customer, now = new Date()): Promise<Response | null> {
  const card = url.searchParams.get("card_session");
  const paid = url.searchParams.get("paid_session");
  if (card === null && paid === null) return null;
  const clean = url.pathname;
  const sessionId = (card ?? paid) as string;
  if (!isStripeConfigured() || !CHECKOUT_SESSION.test(sessionId)) return redirect(clean);
  const db = await getDb();
  try {
    if (card !== null) {
      const synced = await syncSetupSession(db, sessionId, now, user.id);
      if (!synced) return redirect(BILLING_PATH);
      return cardSaved(await chargeNewCard(db, synced.due, now));
    }
    const recorded = await syncPaymentSession(db, sessionId, now, user.id);
    if (recorded === "recorded" || recorded === "repeated") {
      return redirectWithSuccess(clean, { message: "Payment received", description: "Thank you for your payment." });
    }
    if (recorded === "not_succeeded") {
      return redirectWithInfo(clean, {
        message: "Payment pending",
        description: "Your payment is being processed; this page shows it once it is done.",
      });
    }
    return redirect(clean);
  } catch (error) {
    log.error("stripe.return_failed", { userId: user.id, ...errorFields(error) });
    return redirectWithInfo(clean, {
      message: "Almost done",
      description: "We could not confirm with Stripe yet; this page shows your payment once it is done.",
    });
  }
}

/** The way back's toast once the card is stored: and what the new card paid at once, if anything. */
function cardSaved(charges: NewCardCharge[]): Promise<Response> {
  const failed = charges.find((charge) => charge.result === "failed");
  if (failed) {
    return redirectWithError(BILLING_PATH, {
      message: "Payment failed",
      description: `Your card is on file, but invoice ${failed.number} could not be charged: ${failed.reason}`,
    });
  }
  if (charges.some((charge) => charge.result === "pending")) {
    return redirectWithInfo(BILLING_PATH, {
      message: "Card saved",
      description:
        "Your card is on file. We are charging it for what is due; this page shows the payment once it is done.",
    });
  }
  const paid = charges.reduce((sum, charge) => sum + charge.amountCents, 0);
  const description =
    charges.length === 0
      ? "Your card is on file."
      : charges.length === 1
        ? `Your card is on file and paid invoice ${charges[0].number} (${formatCents(paid)}).`
        : `Your card is on file and paid ${charges.length} invoices (${formatCents(paid)}).`;
  return redirectWithSuccess(BILLING_PATH, { message: "Card saved", description });
}
