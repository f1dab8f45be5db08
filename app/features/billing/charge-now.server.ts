import { collectInvoice } from "./payment-recovery.server";
import { BillingError } from "./payments.server";
import { UNREACHABLE } from "./stripe-charge.server";
import { getInvoice } from "~/models/invoice.server";
import { getStripeCustomer, hasChargeInFlight } from "~/models/stripe.server";
import type { Db } from "~/utils/db.server";
import { isStripeConfigured } from "~/utils/stripe.server";

/**
 * The admin's "Charge <balance>" on an open invoice (docs/decisions/107): the card on file is
 * charged now, off the retry schedule (the customer on the phone says the money is there). It is
 * the collection job's own charge (`collectInvoice`): the next attempt's key, a success recorded
 * once and a held plan resumed, a decline recorded and e-mailed like any other. Two presses at
 * once are one attempt (the same key at Stripe); a press after a success finds the invoice paid.
 *
 * Returns the toast's words; throws BillingError (409) when nothing could be charged, with why.
 */
const IN_FLIGHT =
  "A card payment of this invoice is still processing at the bank. Nothing new was charged; its result shows here when the bank answers.";

const DISPUTED =
  "A payment of this invoice is disputed at the customer's bank. Nothing was charged; the card can be charged once Stripe closes the dispute.";

export async function chargeCardNow(db: Db, input: { invoiceId: string; now: Date }): Promise<string> {
  if (!isStripeConfigured()) throw new BillingError("Card payments are not set up.", 409);
  const invoice = await getInvoice(db, input.invoiceId);
  if (!invoice) throw new BillingError("We could not find that invoice.", 404);
  if (invoice.status !== "open" || invoice.total_cents <= invoice.paid_cents) {
    throw new BillingError("Only an open invoice can take a payment.", 409);
  }
  const card = await getStripeCustomer(db, invoice.customer_id);
  if (!card?.payment_method_id) throw new BillingError("This customer has no card on file.", 409);
  // A second PaymentIntent while the first is at the bank could take the money twice (111).
  if (await hasChargeInFlight(db, invoice.id)) throw new BillingError(IN_FLIGHT, 409);
  const outcome = await collectInvoice(db, invoice, input.now);
  switch (outcome?.kind) {
    case "succeeded":
      return "Card charged";
    case "processing":
      return "Card charged: the bank is still processing it";
    case "failed":
      if (outcome.reason !== UNREACHABLE) throw new BillingError(`The card was declined: ${outcome.reason}`, 409);
      break;
    case "no_card":
      throw new BillingError("This customer has no card on file.", 409);
    case "in_flight":
      throw new BillingError(IN_FLIGHT, 409);
    case "disputed":
      throw new BillingError(DISPUTED, 409);
    case "key_conflict":
      throw new BillingError(
        "Stripe has an earlier charge of this invoice that we have not heard back about. Nothing new was charged; check the invoice's payments in Stripe before trying again.",
        409,
      );
  }
  throw new BillingError("We could not reach Stripe. Nothing was charged; please try again.", 409);
}
