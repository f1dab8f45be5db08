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

export type BillingFigures = {
  /** The month's invoices (not void), what was paid on them, and what is still open; cents. */
  invoiced: number;
  paid: number;
  open: number;
  /** The month's invoices, every status. */
  count: number;
  /** Open invoices past their due day, any month. */
  overdue: number;
};

/**
 * The Billing tab in one round trip: one keyset page of the invoices in `status` (open ones by
 * due day, the oldest, most overdue first; the others by due day newest first; the index
 * (status, due_on, id) serves both, and each row's customer is two primary-key probes), beside
 * the month's figures summed from `invoice_tallies` (a few dozen rows kept by triggers, migration
 * 0019) rather than from the month's invoices.
 */
export async function readBillingTab(
  db: Db,
  options: { status: InvoiceStatus; after: InvoiceCursor | null; limit: number; period: string; today: string },
): Promise<{ rows: InvoiceListRow[]; figures: BillingFigures }> {
  const { status, after, limit, period, today } = options;
  const ascending = status === "open" || status === "draft";
  let page = db
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
    page = page.where((eb) =>
      ascending
        ? eb.or([eb("i.due_on", ">", after.due), eb.and([eb("i.due_on", "=", after.due), eb("i.id", ">", after.id)])])
        : eb.or([eb("i.due_on", "<", after.due), eb.and([eb("i.due_on", "=", after.due), eb("i.id", "<", after.id)])]),
    );
  }
  page = ascending
    ? page.orderBy("i.due_on", "asc").orderBy("i.id", "asc")
    : page.orderBy("i.due_on", "desc").orderBy("i.id", "desc");
  const direction = sql.raw(ascending ? "asc" : "desc");
  // One row of figures, joined to each row of the page (or to none: one row with a null id).
  const { rows } = await sql<
    Omit<InvoiceListRow, "id"> & {
      id: string | null;
      tally_invoiced: string | number;
      tally_paid: string | number;
      tally_open: string | number;
      tally_count: string | number;
      tally_overdue: string | number;
    }
  >`select f.*, page.* from (
      select coalesce(sum(total_cents) filter (where period_month = ${period} and status <> 'void'), 0)::int8 as tally_invoiced,
        coalesce(sum(paid_cents) filter (where period_month = ${period}), 0)::int8 as tally_paid,
        coalesce(sum(total_cents - paid_cents) filter (where period_month = ${period} and status = 'open'), 0)::int8 as tally_open,
        coalesce(sum(invoices) filter (where period_month = ${period}), 0)::int8 as tally_count,
        coalesce(sum(invoices) filter (where status = 'open' and due_on < ${today}), 0)::int8 as tally_overdue
      from invoice_tallies where period_month = ${period} or (status = 'open' and due_on < ${today})
    ) f left join lateral ${page} page on true
    order by page.due_on ${direction}, page.id ${direction}`.execute(db);
  const first = rows[0];
  return {
    rows: rows.flatMap(({ tally_invoiced, tally_paid, tally_open, tally_count, tally_overdue, ...row }) =>
      row.id === null ? [] : [{ ...row, id: row.id }],
    ),
    figures: {
      invoiced: Number(first?.tally_invoiced ?? 0),
      paid: Number(first?.tally_paid ?? 0),
      open: Number(first?.tally_open ?? 0),
      count: Number(first?.tally_count ?? 0),
      overdue: Number(first?.tally_overdue ?? 0),
    },
  };
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
      "pay.reversed_cents",
      "pay.to_credit_cents",
      "pay.paid_on",
      "pay.note",
      "pay.created_at",
      "pay.stripe_payment_intent_id",
      "pay.disputed_at",
      "pay.dispute_note",
      "pay.dispute_closed_at",
      "p.full_name as recorded_by_name",
    ])
    .where("pay.invoice_id", "=", invoiceId)
    .orderBy("pay.created_at")
    .execute();
}

type CustomerInvoiceRow = Pick<
  Invoice,
  "id" | "number" | "period_month" | "status" | "issued_on" | "due_on" | "total_cents" | "paid_cents"
>;

/**
 * A customer's Billing page in one round trip: their balance (the sum of their ledger entries,
 * docs/decisions/113; negative: credit on file) beside their invoices, newest month first (at most
 * `limit`, drafts left out). Both walk the index (customer_id, period_month desc, id).
 */
export async function readCustomerBilling(db: Db, customerId: string, limit: number) {
  const invoices = db
    .selectFrom("invoices")
    .select(["id", "number", "period_month", "status", "issued_on", "due_on", "total_cents", "paid_cents"])
    .where("customer_id", "=", customerId)
    .where("status", "<>", "draft")
    .orderBy("period_month", "desc")
    .orderBy("id", "desc")
    .limit(limit);
  // One row of the balance, joined to each invoice (or to none: one row with a null id).
  const { rows } = await sql<
    Omit<CustomerInvoiceRow, "id"> & { id: string | null; owed: string | number }
  >`select b.owed, i.* from (
      select coalesce(sum(amount_cents), 0)::int8 as owed
      from ledger_entries where customer_id = ${customerId}
    ) b left join lateral ${invoices} i on true
    order by i.period_month desc, i.id desc`.execute(db);
  return {
    balance: Number(rows[0]?.owed ?? 0),
    invoices: rows.flatMap(({ owed: _owed, id, ...row }): CustomerInvoiceRow[] =>
      id === null ? [] : [{ ...row, id }],
    ),
  };
}

/** The customer's balance: the sum of their ledger entries (negative: credit on file). */
export async function customerBalance(db: Db, customerId: string): Promise<number> {
  const { rows } = await sql<{ balance: string | number }>`
    select coalesce(sum(amount_cents), 0)::int8 as balance
    from ledger_entries where customer_id = ${customerId}`.execute(db);
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
export async function insertPayment(
  trx: Db,
  payment: NewPaymentRow & { toCreditCents?: number },
): Promise<string | null> {
  const row = await trx
    .insertInto("payments")
    .values({
      to_credit_cents: payment.toCreditCents ?? 0,
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

/**
 * What paid a written-off invoice, lowered (a lost dispute took a payment of it back; docs/decisions/121):
 * it stays written off, and the part taken back is written off with it (the reversal's entry).
 */
export async function setWrittenOffInvoicePaid(trx: Db, id: string, paidCents: number, now: Date) {
  await trx
    .updateTable("invoices")
    .set({ paid_cents: paidCents, updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "uncollectible")
    .execute();
}

export async function setInvoiceVoid(trx: Db, id: string, at: Date) {
  await trx
    .updateTable("invoices")
    .set({ status: "void", voided_at: at, updated_at: at })
    .where("id", "=", id)
    .execute();
}

export async function setInvoiceUncollectible(trx: Db, id: string, at: Date) {
  await trx
    .updateTable("invoices")
    .set({ status: "uncollectible", uncollectible_at: at, updated_at: at })
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

export async function addPaymentReversed(trx: Db, paymentId: string, amountCents: number) {
  await trx
    .updateTable("payments")
    .set((eb) => ({ reversed_cents: eb("reversed_cents", "+", amountCents) }))
    .where("id", "=", paymentId)
    .execute();
}

/** What was refunded of an invoice's payments, shown on it ("Refunded $20.00"). */
export async function addInvoiceRefunded(trx: Db, invoiceId: string, amountCents: number, now: Date) {
  await trx
    .updateTable("invoices")
    .set((eb) => ({ refunded_cents: eb("refunded_cents", "+", amountCents), updated_at: now }))
    .where("id", "=", invoiceId)
    .execute();
}
