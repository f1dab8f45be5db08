import { recoveryContext, serviceResumedEmail, type RecoveryContext } from "./payment-recovery-emails.server";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import { releasePaymentHold } from "~/features/plans/plan-changes.server";
import { otherInvoiceHoldsPlan, setInvoiceCollection } from "~/models/invoice-collection.server";
import { lockInvoice } from "~/models/invoice.server";
import type { Db } from "~/utils/db.server";

/**
 * Every payment's last step, inside its transaction with the invoice locked (recordPayment by
 * hand or for a Stripe charge, a webhook, a void): once the invoice is no longer open, no try is
 * left, and a plan held for it is released (unless another unpaid invoice still holds it) and the
 * customer told "Your service is back on". Idempotent: a second call finds nothing to do.
 */
export async function afterInvoiceSettled(trx: Db, input: { invoiceId: string; now: Date; context?: RecoveryContext }) {
  const invoice = await lockInvoice(trx, input.invoiceId);
  if (!invoice || invoice.status === "open" || invoice.status === "draft") return { resumed: false };
  if (invoice.next_charge_on !== null) await setInvoiceCollection(trx, invoice.id, { next_charge_on: null });
  if (!invoice.plan_id || !invoice.plan_paused_at || invoice.plan_resumed_at) return { resumed: false };
  await setInvoiceCollection(trx, invoice.id, { plan_resumed_at: input.now });
  if (await otherInvoiceHoldsPlan(trx, invoice.plan_id, invoice.id)) return { resumed: false };
  const context = input.context ?? (await recoveryContext());
  const released = await releasePaymentHold(trx, {
    planId: invoice.plan_id,
    now: input.now,
    detail: `Invoice ${invoice.number} paid`,
    rules: context.planRules,
  });
  if (!released) return { resumed: false };
  const customer = await customerEmail(trx, invoice.customer_id);
  if (customer) {
    await enqueueEmail(trx, {
      ...serviceResumedEmail(context, { number: invoice.number, settled: invoice.status }),
      to: customer,
      dedupeKey: `payment-resumed:${invoice.id}`,
      relatedId: invoice.id,
    });
  }
  return { resumed: true };
}

/** The customer's e-mail address (the recovery's e-mails go to the invoice's customer). */
export async function customerEmail(trx: Db, customerId: string) {
  const row = await trx.selectFrom("users").select("email").where("id", "=", customerId).executeTakeFirst();
  return row?.email ?? null;
}
