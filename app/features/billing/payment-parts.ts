/**
 * What is left of a payment, and where it went (docs/decisions/113, 121): the part still on its
 * invoice and the part it left as credit on file. A refund pays the credit part back first (as a
 * refund pays credit on file back first, and as the admin's "Overpaid" list counts it), so an
 * overpayment refunded leaves the whole rest on the invoice. Pure: "Reverse payment", a lost
 * dispute and the invoice page's figure read the same numbers.
 */
export function paymentParts(
  payment: { amount_cents: number; refunded_cents: number; reversed_cents: number; to_credit_cents: number },
  invoice: { status: string; paid_cents: number; credit_applied_cents: number },
) {
  const held = Math.max(0, payment.amount_cents - payment.refunded_cents - payment.reversed_cents);
  // All of a voided invoice's payment is credit: a voided invoice counts for nothing.
  if (invoice.status === "void") return { held, ofInvoice: 0, asCredit: held };
  const asCredit = Math.min(held, Math.max(0, payment.to_credit_cents - payment.refunded_cents));
  const ofInvoice = Math.max(0, Math.min(held - asCredit, invoice.paid_cents - invoice.credit_applied_cents));
  return { held, ofInvoice, asCredit };
}
