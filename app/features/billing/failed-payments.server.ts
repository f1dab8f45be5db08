import { dayLabel } from "./billing-pages.server";
import { formatCents } from "./money";
import { listCustomerFailedPayments, listFailedPayments } from "~/models/invoice-collection.server";
import { formatBusinessDate } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";

/**
 * What the billing pages show of failed payments (docs/decisions/104): the admin's "Failed
 * payments" list on the Billing tab, and the customer's notice on their Billing page. Each is one
 * small indexed read (open invoices with a failure: few), beside the page's own loader.
 */

const ADMIN_LIMIT = 50;
const CUSTOMER_LIMIT = 3;

export async function loadFailedPayments() {
  const rows = await listFailedPayments(await getDb(), ADMIN_LIMIT + 1);
  return {
    more: rows.length > ADMIN_LIMIT,
    items: rows.slice(0, ADMIN_LIMIT).map((row) => ({
      id: row.id,
      number: row.number,
      customer: row.full_name || row.email,
      customerId: row.customer_id,
      balance: formatCents(row.total_cents - row.paid_cents),
      reason: row.last_failure_reason ?? "",
      failed: row.last_failed_at ? formatBusinessDate(row.last_failed_at) : "",
      attempts: row.charge_attempts,
      nextRetry: row.next_charge_on ? dayLabel(row.next_charge_on) : null,
      pausedSince: row.plan_paused_at ? formatBusinessDate(row.plan_paused_at) : null,
    })),
  };
}
export type FailedPayments = Awaited<ReturnType<typeof loadFailedPayments>>;

/** The customer's own open invoices whose payment failed, and whether their service is paused for them. */
export async function loadPaymentNotice(customerId: string) {
  const rows = await listCustomerFailedPayments(await getDb(), customerId, CUSTOMER_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    balance: formatCents(row.total_cents - row.paid_cents),
    reason: row.last_failure_reason ?? "",
    nextRetry: row.next_charge_on ? dayLabel(row.next_charge_on) : null,
    paused: row.plan_paused_at !== null,
  }));
}
export type PaymentNotice = Awaited<ReturnType<typeof loadPaymentNotice>>;
