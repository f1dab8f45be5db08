import { sql } from "kysely";
import type { Invoice, InvoiceStatus, PaymentMethod } from "../../db/schema";
import type { Db } from "~/utils/db.server";

/**
 * Table access for invoices, their lines and payments (docs/decisions/100, 102): the pages' reads
 * and the payment transaction's writes. Every function takes the caller's handle.
 */

export type InvoiceListRow = Pick<
  Invoice,
  "id" | "number" | "customer_id" | "period_month" | "status" | "due_on" | "total_cents" | "paid_cents"
> & { email: string; full_name: string | null };

/** The Billing tab's groups, in the order shown: open invoices (overdue first), then the others. */
export type InvoiceCursor = { due: string; id: string };

/**
 * One keyset page of the invoices in `status`: open ones by due day (the oldest, most overdue
 * first), the others by due day newest first. The index (status, due_on, id) serves both.
 */
export async function listInvoicesPage(
  db: Db,
  status: InvoiceStatus,
  after: InvoiceCursor | null,
  limit: number,
): Promise<InvoiceListRow[]> {
  const ascending = status === "open" || status === "draft";
  let query = db
    .selectFrom("invoices as i")
    .innerJoin("users as u", "u.id", "i.customer_id")
    .leftJoin("profiles as p", "p.user_id", "i.customer_id")
    .select([
      "i.id",
      "i.number",
      "i.customer_id",
      "i.period_month",
      "i.status",
      "i.due_on",
      "i.total_cents",
      "i.paid_cents",
      "u.email",
      "p.full_name",
    ])
    .where("i.status", "=", status)
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      ascending
        ? eb.or([eb("i.due_on", ">", after.due), eb.and([eb("i.due_on", "=", after.due), eb("i.id", ">", after.id)])])
        : eb.or([eb("i.due_on", "<", after.due), eb.and([eb("i.due_on", "=", after.due), eb("i.id", "<", after.id)])]),
    );
  }
  query = ascending
    ? query.orderBy("i.due_on", "asc").orderBy("i.id", "asc")
    : query.orderBy("i.due_on", "desc").orderBy("i.id", "desc");
  return query.execute();
}

/** The month's totals: invoiced (not void), paid, and still open. */
export async function monthTotals(db: Db, period: string) {
  const { rows } = await sql<{ invoiced: number; paid: number; open: number; count: number }>`
    select coalesce(sum(total_cents) filter (where status <> 'void'), 0)::bigint::int8 as invoiced,
      coalesce(sum(paid_cents), 0)::int8 as paid,
      coalesce(sum(total_cents - paid_cents) filter (where status = 'open'), 0)::int8 as open,
      count(*)::int as count
    from invoices where period_month = ${period}`.execute(db);
  const row = rows[0];
  return { invoiced: Number(row.invoiced), paid: Number(row.paid), open: Number(row.open), count: Number(row.count) };
}

/** How many open invoices are past their due day (the tab's heading). */
export async function countOverdue(db: Db, today: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from invoices where status = 'open' and due_on < ${today}`.execute(db);
  return rows[0]?.n ?? 0;
}

export async function getInvoice(db: Db, id: string) {
  return db
    .selectFrom("invoices as i")
    .innerJoin("users as u", "u.id", "i.customer_id")
    .leftJoin("profiles as p", "p.user_id", "i.customer_id")
    .selectAll("i")
    .select(["u.email", "p.full_name"])
    .where("i.id", "=", id)
    .executeTakeFirst();
}

/** The invoice if it is this customer's; undefined otherwise (the caller answers 404). */
export async function getCustomerInvoice(db: Db, id: string, customerId: string) {
  const invoice = await getInvoice(db, id);
  return invoice && invoice.customer_id === customerId ? invoice : undefined;
}

export async function listInvoiceLines(db: Db, invoiceId: string) {
  return db
    .selectFrom("invoice_lines")
    .select(["id", "kind", "description", "amount_cents"])
    .where("invoice_id", "=", invoiceId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export async function listInvoicePayments(db: Db, invoiceId: string) {
  return db
    .selectFrom("payments as pay")
    .leftJoin("profiles as p", "p.user_id", "pay.recorded_by")
    .select([
      "pay.id",
      "pay.method",
      "pay.amount_cents",
      "pay.refunded_cents",
      "pay.paid_on",
      "pay.note",
      "pay.created_at",
      "pay.stripe_payment_intent_id",
      "pay.disputed_at",
      "pay.dispute_note",
      "p.full_name as recorded_by_name",
    ])
    .where("pay.invoice_id", "=", invoiceId)
    .orderBy("pay.created_at")
    .execute();
}

/** A customer's invoices, newest month first (at most `limit`). */
export async function listCustomerInvoices(db: Db, customerId: string, limit: number) {
  return db
    .selectFrom("invoices")
    .select(["id", "number", "period_month", "status", "issued_on", "due_on", "total_cents", "paid_cents"])
    .where("customer_id", "=", customerId)
    .where("status", "<>", "draft")
    .orderBy("period_month", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** What the customer owes now: the open invoices' totals less what was paid on them. */
export async function customerBalance(db: Db, customerId: string): Promise<number> {
  const { rows } = await sql<{ balance: string | number }>`
    select coalesce(sum(total_cents - paid_cents), 0)::int8 as balance
    from invoices where customer_id = ${customerId} and status = 'open'`.execute(db);
  return Number(rows[0]?.balance ?? 0);
}

/** The invoice, locked for the rest of the transaction (a payment, a refund or a void). */
export async function lockInvoice(trx: Db, id: string) {
  return trx.selectFrom("invoices").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export type NewPaymentRow = {
  invoiceId: string;
  method: PaymentMethod;
  amountCents: number;
  paidOn: string;
  note: string | null;
  recordedBy: string | null;
  idempotencyKey: string;
  stripePaymentIntentId?: string | null;
};

/** Inserts the payment unless its key was used: returns its id, or null for a repeated key. */
export async function insertPayment(trx: Db, payment: NewPaymentRow): Promise<string | null> {
  const row = await trx
    .insertInto("payments")
    .values({
      invoice_id: payment.invoiceId,
      method: payment.method,
      amount_cents: payment.amountCents,
      paid_on: payment.paidOn,
      note: payment.note,
      recorded_by: payment.recordedBy,
      idempotency_key: payment.idempotencyKey,
      stripe_payment_intent_id: payment.stripePaymentIntentId ?? null,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function findPaymentByKey(db: Db, key: string) {
  return db.selectFrom("payments").select(["id", "invoice_id"]).where("idempotency_key", "=", key).executeTakeFirst();
}

export async function setInvoicePaid(
  trx: Db,
  id: string,
  paidCents: number,
  status: InvoiceStatus,
  paidAt: Date | null,
) {
  await trx
    .updateTable("invoices")
    .set({ paid_cents: paidCents, status, paid_at: paidAt, updated_at: new Date() })
    .where("id", "=", id)
    .execute();
}

export async function setInvoiceVoid(trx: Db, id: string, at: Date) {
  await trx
    .updateTable("invoices")
    .set({ status: "void", voided_at: at, updated_at: at })
    .where("id", "=", id)
    .execute();
}

/** The payment, locked for the rest of the transaction (a refund). */
export async function lockPayment(trx: Db, id: string) {
  return trx.selectFrom("payments").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function insertRefund(
  trx: Db,
  refund: {
    paymentId: string;
    amountCents: number;
    refundedOn: string;
    note: string | null;
    recordedBy: string | null;
    idempotencyKey: string;
    stripeRefundId?: string | null;
  },
): Promise<string | null> {
  const row = await trx
    .insertInto("refunds")
    .values({
      payment_id: refund.paymentId,
      amount_cents: refund.amountCents,
      refunded_on: refund.refundedOn,
      note: refund.note,
      recorded_by: refund.recordedBy,
      idempotency_key: refund.idempotencyKey,
      stripe_refund_id: refund.stripeRefundId ?? null,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function addPaymentRefunded(trx: Db, paymentId: string, amountCents: number) {
  await trx
    .updateTable("payments")
    .set((eb) => ({ refunded_cents: eb("refunded_cents", "+", amountCents) }))
    .where("id", "=", paymentId)
    .execute();
}
