import { sql } from "kysely";
import type { CreditNotePayout, CreditNoteReason, LedgerEntryKind, PaymentReversalKind } from "../../db/schema";
import { allocateNumber } from "./number-counters.server";
import type { Db } from "~/utils/db.server";

/**
 * Table access for the customer ledger (docs/decisions/113). The entries are written by the
 * database's triggers from the documents (invoices, payments, refunds, credit notes, reversals);
 * this module reads them and inserts the documents that only the ledger's workflow makes.
 */

/** A customer's balance: the sum of their entries (positive: owed; negative: credit on file). */
export async function ledgerBalance(db: Db, customerId: string): Promise<number> {
  const { rows } = await sql<{ balance: string | number }>`
    select coalesce(sum(amount_cents), 0)::int8 as balance from ledger_entries where customer_id = ${customerId}`.execute(
    db,
  );
  return Number(rows[0]?.balance ?? 0);
}

/**
 * The credit on file of these customers, those that have any: what their open invoices owe less
 * their balance. Credit is applied to what is due as soon as both exist, so it is the negative
 * balance of a customer who owes nothing.
 */
export async function creditsOnFile(db: Db, customerIds: readonly string[]): Promise<Map<string, number>> {
  if (customerIds.length === 0) return new Map();
  const { rows } = await sql<{ customer_id: string; credit: string | number }>`
    select c.id as customer_id,
      (select coalesce(sum(i.total_cents - i.paid_cents), 0) from invoices i
        where i.customer_id = c.id and i.status = 'open')
      - (select coalesce(sum(e.amount_cents), 0) from ledger_entries e where e.customer_id = c.id) as credit
    from unnest(${sql.val([...new Set(customerIds)])}::uuid[]) as c(id)`.execute(db);
  return new Map(rows.filter((row) => Number(row.credit) > 0).map((row) => [row.customer_id, Number(row.credit)]));
}

/**
 * Serialises the transactions that use a customer's credit on file (the billing run applying it,
 * a refund paid out of it): transaction-level advisory locks, taken in one order.
 */
export async function lockCustomerMoney(trx: Db, customerIds: readonly string[]) {
  const keys = [...new Set(customerIds)].sort();
  if (keys.length === 0) return;
  await sql`select pg_advisory_xact_lock(hashtextextended('swift-scoop:money:' || k, 0))
    from unnest(${sql.val(keys)}::text[]) with ordinality as t(k, n) order by n`.execute(trx);
}

/**
 * A customer's open invoices that owe something, oldest first (credit is applied in this order),
 * locked for the transaction unless `lock: false` (a page's read).
 */
export async function listOpenInvoicesOwing(trx: Db, customerId: string, options: { lock?: boolean } = {}) {
  const query = trx
    .selectFrom("invoices")
    .select(["id", "total_cents", "paid_cents", "credit_applied_cents"])
    .where("customer_id", "=", customerId)
    .where("status", "=", "open")
    .whereRef("total_cents", ">", "paid_cents")
    .orderBy("due_on")
    .orderBy("number");
  return (options.lock === false ? query : query.forUpdate()).execute();
}

/** Adds credit on file to what paid an invoice; settled (paid) when nothing is left owing. */
export async function addCreditApplied(
  trx: Db,
  invoice: { id: string; total_cents: number; paid_cents: number },
  cents: number,
  now: Date,
) {
  const settled = invoice.paid_cents + cents >= invoice.total_cents;
  await trx
    .updateTable("invoices")
    .set((eb) => ({
      paid_cents: eb("paid_cents", "+", cents),
      credit_applied_cents: eb("credit_applied_cents", "+", cents),
      ...(settled ? { status: "paid" as const, paid_at: now } : {}),
      updated_at: now,
    }))
    .where("id", "=", invoice.id)
    .execute();
  return settled;
}

export type LedgerRow = {
  id: string;
  kind: LedgerEntryKind;
  amount_cents: number;
  occurred_on: string;
  invoice_id: string | null;
  invoice_number: string | null;
  credit_note_number: string | null;
  payment_method: string | null;
};

/** A customer's entries, newest first, with the documents' numbers. */
export async function listLedger(db: Db, customerId: string, limit: number): Promise<LedgerRow[]> {
  return db
    .selectFrom("ledger_entries as e")
    .leftJoin("invoices as i", "i.id", "e.invoice_id")
    .leftJoin("credit_notes as cn", "cn.id", "e.credit_note_id")
    .leftJoin("payments as p", "p.id", "e.payment_id")
    .select([
      "e.id",
      "e.kind",
      "e.amount_cents",
      "e.occurred_on",
      "e.invoice_id",
      "i.number as invoice_number",
      "cn.number as credit_note_number",
      "p.method as payment_method",
    ])
    .where("e.customer_id", "=", customerId)
    .orderBy("e.id", "desc")
    .limit(limit)
    .execute() as Promise<LedgerRow[]>;
}

export type NewCreditNote = {
  customerId: string;
  invoiceId: string | null;
  reason: CreditNoteReason;
  paidOut: CreditNotePayout;
  amountCents: number;
  issuedOn: string;
  description: string;
  refundId: string | null;
  idempotencyKey: string;
};

/**
 * Numbers and inserts a credit note ("CN-2027-0000001"), the year's counter row locked first as
 * invoice numbers are (docs/decisions/100): no gap, no race. Null when its key was used.
 */
export async function insertCreditNote(trx: Db, note: NewCreditNote): Promise<{ id: string; number: string } | null> {
  const used = await trx
    .selectFrom("credit_notes")
    .select("id")
    .where("idempotency_key", "=", note.idempotencyKey)
    .executeTakeFirst();
  if (used) return null;
  const year = Number(note.issuedOn.slice(0, 4));
  const number = `CN-${year}-${String(await allocateNumber(trx, "credit_note_number_counters", year)).padStart(7, "0")}`;
  const row = await trx
    .insertInto("credit_notes")
    .values({
      number,
      customer_id: note.customerId,
      invoice_id: note.invoiceId,
      reason: note.reason,
      paid_out: note.paidOut,
      amount_cents: note.amountCents,
      issued_on: note.issuedOn,
      description: note.description,
      refund_id: note.refundId,
      idempotency_key: note.idempotencyKey,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, number };
}

/** The lines of a credit note that gives visits back (0028, docs/decisions/115). */
export async function insertCreditNoteLines(
  trx: Db,
  creditNoteId: string,
  lines: readonly {
    planId: string | null;
    month: string;
    slot: string;
    visitId: string | null;
    description: string;
    amountCents: number;
    /** A plan change's adjustment given back (decision 120); its slot is its month's first day. */
    adjustmentId?: string | null;
  }[],
) {
  if (lines.length === 0) return;
  await trx
    .insertInto("credit_note_lines")
    .values(
      lines.map((line, position) => ({
        credit_note_id: creditNoteId,
        plan_id: line.planId,
        month: line.month,
        slot: line.slot,
        visit_id: line.visitId,
        adjustment_id: line.adjustmentId ?? null,
        description: line.description.slice(0, 300),
        amount_cents: line.amountCents,
        position,
      })),
    )
    .execute();
}

/** The latest month a plan has a live (not void) invoice for; null: never invoiced. */
export async function lastInvoicedMonthOfPlan(db: Db, planId: string): Promise<string | null> {
  const row = await db
    .selectFrom("invoices")
    .select((eb) => eb.fn.max("period_month").as("month"))
    .where("plan_id", "=", planId)
    .where("status", "<>", "void")
    .executeTakeFirst();
  const month = row?.month as string | Date | null | undefined;
  if (!month) return null;
  return typeof month === "string" ? month.slice(0, 10) : month.toISOString().slice(0, 10);
}

/** A customer's credit notes, newest first, with their lines (the Billing page and the PDF). */
export async function listCreditNotesOfCustomer(db: Db, customerId: string, limit: number) {
  const notes = await db
    .selectFrom("credit_notes")
    .select(["id", "number", "reason", "paid_out", "amount_cents", "issued_on", "description"])
    .where("customer_id", "=", customerId)
    .orderBy("issued_on", "desc")
    .orderBy("number", "desc")
    .limit(limit)
    .execute();
  if (notes.length === 0) return [];
  const lines = await db
    .selectFrom("credit_note_lines")
    .select(["credit_note_id", "description", "amount_cents"])
    .where(
      "credit_note_id",
      "in",
      notes.map((note) => note.id),
    )
    .orderBy("credit_note_id")
    .orderBy("position")
    .execute();
  return notes.map((note) => ({ ...note, lines: lines.filter((line) => line.credit_note_id === note.id) }));
}

export async function listCreditNotesOfInvoice(db: Db, invoiceId: string) {
  return db
    .selectFrom("credit_notes")
    .select(["id", "number", "reason", "paid_out", "amount_cents", "issued_on", "description"])
    .where("invoice_id", "=", invoiceId)
    .orderBy("number")
    .execute();
}

/** One credit note with whom it is for and the invoice it belongs to (its page and PDF). */
export async function getCreditNote(db: Db, id: string) {
  return db
    .selectFrom("credit_notes as cn")
    .innerJoin("users as u", "u.id", "cn.customer_id")
    .leftJoin("profiles as p", "p.user_id", "cn.customer_id")
    .leftJoin("invoices as i", "i.id", "cn.invoice_id")
    .select([
      "cn.id",
      "cn.number",
      "cn.customer_id",
      "cn.invoice_id",
      "cn.reason",
      "cn.paid_out",
      "cn.amount_cents",
      "cn.issued_on",
      "cn.description",
      "u.email",
      "p.full_name",
      "i.number as invoice_number",
      "i.status as invoice_status",
    ])
    .where("cn.id", "=", id)
    .executeTakeFirst();
}

export async function insertPaymentReversal(
  trx: Db,
  reversal: {
    paymentId: string;
    kind: PaymentReversalKind;
    amountCents: number;
    reversedOn: string;
    note: string | null;
    recordedBy: string | null;
    idempotencyKey: string;
    /** The lost Stripe dispute this is (docs/decisions/118). */
    stripeDisputeId?: string | null;
    /** Of a lost dispute: the parts taken from credit on file and from a written-off invoice (121). */
    fromCreditCents?: number;
    writtenOffCents?: number;
  },
): Promise<string | null> {
  const row = await trx
    .insertInto("payment_reversals")
    .values({
      payment_id: reversal.paymentId,
      kind: reversal.kind,
      amount_cents: reversal.amountCents,
      reversed_on: reversal.reversedOn,
      note: reversal.note,
      recorded_by: reversal.recordedBy,
      idempotency_key: reversal.idempotencyKey,
      stripe_dispute_id: reversal.stripeDisputeId ?? null,
      from_credit_cents: reversal.fromCreditCents ?? 0,
      written_off_cents: reversal.writtenOffCents ?? 0,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The lost disputes of an invoice's payments (docs/decisions/118), by payment. */
/** Every Stripe dispute of an invoice's payments, open, won or lost, with Stripe's fee (0033). */
export async function listDisputesOfInvoice(db: Db, invoiceId: string) {
  return db
    .selectFrom("payment_disputes as d")
    .innerJoin("payments as p", "p.id", "d.payment_id")
    .select(["d.stripe_dispute_id", "d.payment_id", "d.status", "d.fee_cents", "d.opened_at", "d.closed_at"])
    .where("p.invoice_id", "=", invoiceId)
    .orderBy("d.opened_at")
    .execute();
}

export async function listDisputesLostOfInvoice(db: Db, invoiceId: string) {
  return db
    .selectFrom("payment_reversals as r")
    .innerJoin("payments as p", "p.id", "r.payment_id")
    .leftJoin("payment_disputes as d", "d.stripe_dispute_id", "r.stripe_dispute_id")
    .select([
      "r.id",
      "r.payment_id",
      "r.amount_cents",
      "r.from_credit_cents",
      "r.written_off_cents",
      "r.reversed_on",
      "r.stripe_dispute_id",
      "d.fee_cents",
    ])
    .where("p.invoice_id", "=", invoiceId)
    .where("r.kind", "=", "dispute_lost")
    .orderBy("r.created_at")
    .execute();
}

/**
 * The Billing tab's "Disputes lost": how many there are, and the newest (partial index
 * payment_reversals_dispute_lost_idx; a business has few).
 */
export async function listDisputesLost(db: Db, limit: number) {
  const [count, rows] = await Promise.all([
    db
      .selectFrom("payment_reversals")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("kind", "=", "dispute_lost")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("payment_reversals as r")
      .innerJoin("payments as p", "p.id", "r.payment_id")
      .innerJoin("invoices as i", "i.id", "p.invoice_id")
      .innerJoin("users as u", "u.id", "i.customer_id")
      .leftJoin("profiles as pr", "pr.user_id", "i.customer_id")
      .leftJoin("payment_disputes as d", "d.stripe_dispute_id", "r.stripe_dispute_id")
      .select([
        "r.id",
        "r.amount_cents",
        "d.fee_cents",
        "r.reversed_on",
        "r.stripe_dispute_id",
        "i.id as invoice_id",
        "i.number",
        "i.customer_id",
        "u.email",
        "pr.full_name",
      ])
      .where("r.kind", "=", "dispute_lost")
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc")
      .limit(limit)
      .execute(),
  ]);
  return { count: Number(count.n), rows };
}

export type LedgerMonth = { opening: number; byKind: Map<LedgerEntryKind, { entries: number; cents: number }> };

/** A month's roll-forward: the balance of every customer before it, and its entries by kind. */
export async function readLedgerMonth(db: Db, month: string): Promise<LedgerMonth> {
  const { rows } = await sql<{ kind: LedgerEntryKind | null; entries: string | number; cents: string | number }>`
    select null as kind, 0 as entries, coalesce(sum(amount_cents), 0) as cents from ledger_tallies where month < ${month}
    union all
    select kind, sum(entries), sum(amount_cents) from ledger_tallies where month = ${month} group by kind`.execute(db);
  const byKind = new Map<LedgerEntryKind, { entries: number; cents: number }>();
  let opening = 0;
  for (const row of rows) {
    if (row.kind === null) opening = Number(row.cents);
    else byKind.set(row.kind, { entries: Number(row.entries), cents: Number(row.cents) });
  }
  return { opening, byKind };
}

export type LedgerExportRow = {
  id: string;
  occurred_on: string;
  kind: LedgerEntryKind;
  amount_cents: number;
  email: string;
  full_name: string | null;
  invoice_number: string | null;
  credit_note_number: string | null;
  method: string | null;
  stripe_payment_intent_id: string | null;
  stripe_refund_id: string | null;
};

/** One keyset batch of the entries of [from, until), by day then id: the accountant's export. */
export async function listLedgerExportBatch(
  db: Db,
  range: { from: string; until: string },
  after: { day: string; id: string } | null,
  limit: number,
): Promise<LedgerExportRow[]> {
  let query = db
    .selectFrom("ledger_entries as e")
    .innerJoin("users as u", "u.id", "e.customer_id")
    .leftJoin("profiles as pr", "pr.user_id", "e.customer_id")
    .leftJoin("invoices as i", "i.id", "e.invoice_id")
    .leftJoin("credit_notes as cn", "cn.id", "e.credit_note_id")
    .leftJoin("payments as p", "p.id", "e.payment_id")
    .leftJoin("refunds as r", "r.id", "e.refund_id")
    .select([
      "e.id",
      "e.occurred_on",
      "e.kind",
      "e.amount_cents",
      "u.email",
      "pr.full_name",
      "i.number as invoice_number",
      "cn.number as credit_note_number",
      "p.method",
      "p.stripe_payment_intent_id",
      "r.stripe_refund_id",
    ])
    .where("e.occurred_on", ">=", range.from)
    .where("e.occurred_on", "<", range.until)
    .orderBy("e.occurred_on")
    .orderBy("e.id")
    .limit(limit);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("e.occurred_on", ">", after.day),
        eb.and([eb("e.occurred_on", "=", after.day), eb("e.id", ">", after.id)]),
      ]),
    );
  }
  return query.execute() as Promise<LedgerExportRow[]>;
}

/**
 * Payments that brought more than their invoice owed and whose excess is not refunded yet, newest
 * first (the partial index payments_overpaid_idx): the admin refunds them or keeps them as credit.
 */
export async function listOverpaidPayments(db: Db, limit: number) {
  return db
    .selectFrom("payments as p")
    .innerJoin("invoices as i", "i.id", "p.invoice_id")
    .innerJoin("users as u", "u.id", "i.customer_id")
    .leftJoin("profiles as pr", "pr.user_id", "i.customer_id")
    .select([
      "p.id",
      "p.invoice_id",
      "p.amount_cents",
      "p.to_credit_cents",
      "p.refunded_cents",
      "p.paid_on",
      "i.number",
      "i.customer_id",
      "u.email",
      "pr.full_name",
    ])
    .whereRef("p.to_credit_cents", ">", "p.refunded_cents")
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(limit)
    .execute();
}
