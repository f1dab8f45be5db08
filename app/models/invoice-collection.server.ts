import type { Invoice } from "../../db/schema";
import type { Db } from "~/utils/db.server";
import { chargeInFlight, underOpenDispute } from "./stripe.server";

/**
 * Table access for the collection of invoices (docs/decisions/104): failed charges, the next try,
 * the pause for an overdue payment, and the lists that show them. Every function takes the
 * caller's handle (the collection job runs on its advisory lock's connection).
 */

/** Records a failed attempt unless it is known (same attempt or PaymentIntent): its id, or null. */
export async function insertChargeFailure(
  trx: Db,
  failure: { invoiceId: string; attempt: number; paymentIntentId: string | null; reason: string; failedAt: Date },
): Promise<string | null> {
  const row = await trx
    .insertInto("invoice_charge_failures")
    .values({
      invoice_id: failure.invoiceId,
      attempt: failure.attempt,
      payment_intent_id: failure.paymentIntentId,
      reason: failure.reason,
      failed_at: failure.failedAt,
    })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Whether this PaymentIntent's failure is recorded already (for any invoice). */
export async function hasChargeFailureForIntent(db: Db, paymentIntentId: string): Promise<boolean> {
  const row = await db
    .selectFrom("invoice_charge_failures")
    .select("id")
    .where("payment_intent_id", "=", paymentIntentId)
    .executeTakeFirst();
  return row !== undefined;
}

export type CollectionPatch = Partial<
  Pick<
    Invoice,
    | "charge_attempts"
    | "first_failed_at"
    | "last_failed_at"
    | "last_failure_reason"
    | "next_charge_on"
    | "plan_paused_at"
    | "plan_resumed_at"
  >
>;

export async function setInvoiceCollection(trx: Db, id: string, patch: CollectionPatch) {
  await trx
    .updateTable("invoices")
    .set({ ...patch, updated_at: new Date() })
    .where("id", "=", id)
    .execute();
}

export type InvoiceToCharge = Pick<Invoice, "id" | "customer_id" | "charge_attempts">;

/**
 * One keyset batch (by id) of the open invoices never tried whose due day is from `from` to
 * `today`: their first off-session charge.
 */
export async function listFirstChargesBatch(
  db: Db,
  range: { from: string; today: string },
  afterId: string | null,
  limit: number,
): Promise<InvoiceToCharge[]> {
  let query = db
    .selectFrom("invoices")
    .select(["id", "customer_id", "charge_attempts"])
    .where("status", "=", "open")
    .where("charge_attempts", "=", 0)
    // Something to charge: an invoice whose credits cover it owes nothing.
    .whereRef("total_cents", ">", "paid_cents")
    // Not while a "Pay now" payment is at the bank (docs/decisions/111), nor while a payment of it
    // is disputed at the customer's bank (118).
    .where((eb) => eb.not(chargeInFlight(eb)))
    .where((eb) => eb.not(underOpenDispute(eb)))
    .where("due_on", ">=", range.from)
    .where("due_on", "<=", range.today)
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

/** One keyset batch (by id) of the open invoices whose next try is due by `today` (a retry). */
export async function listRetriesBatch(
  db: Db,
  today: string,
  afterId: string | null,
  limit: number,
): Promise<InvoiceToCharge[]> {
  let query = db
    .selectFrom("invoices")
    .select(["id", "customer_id", "charge_attempts"])
    .where("status", "=", "open")
    .where("next_charge_on", "is not", null)
    .where("next_charge_on", "<=", today)
    .whereRef("total_cents", ">", "paid_cents")
    .where((eb) => eb.not(chargeInFlight(eb)))
    .where((eb) => eb.not(underOpenDispute(eb)))
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

export type InvoiceDueNow = InvoiceToCharge & Pick<Invoice, "number" | "total_cents" | "paid_cents">;

/**
 * A new card on file (docs/decisions/107): the customer's open invoices with a balance due by
 * `today` and no charge in flight (never tried, a try due, or their latest try failed; not one
 * the bank is still processing) get their next try today, in the caller's transaction. Returns
 * them, the oldest due first.
 */
export async function markDueForNewCard(trx: Db, customerId: string, today: string): Promise<InvoiceDueNow[]> {
  const rows = await trx
    .updateTable("invoices")
    .set({ next_charge_on: today, updated_at: new Date() })
    .where("customer_id", "=", customerId)
    .where("status", "=", "open")
    .whereRef("total_cents", ">", "paid_cents")
    .where("due_on", "<=", today)
    // A new card does not pay what a payment under dispute is contested for (docs/decisions/118).
    .where((eb) => eb.not(underOpenDispute(eb)))
    .where((eb) =>
      eb.or([
        eb("charge_attempts", "=", 0),
        eb("next_charge_on", "is not", null),
        eb.exists(
          eb
            .selectFrom("invoice_charge_failures as f")
            .select("f.id")
            .whereRef("f.invoice_id", "=", "invoices.id")
            .whereRef("f.attempt", "=", "invoices.charge_attempts"),
        ),
      ]),
    )
    .returning(["id", "customer_id", "charge_attempts", "number", "total_cents", "paid_cents", "due_on"])
    .execute();
  return rows
    .sort((a, b) => String(a.due_on).localeCompare(String(b.due_on)) || a.number.localeCompare(b.number))
    .map(({ due_on: _due, ...row }) => row);
}

/**
 * One keyset batch (by id) of the open plan invoices whose first failure was at or before
 * `failedBy` and whose plan is not yet paused for them.
 */
export async function listPausesDueBatch(
  db: Db,
  failedBy: Date,
  afterId: string | null,
  limit: number,
): Promise<{ id: string }[]> {
  let query = db
    .selectFrom("invoices")
    .select(["id"])
    .where("status", "=", "open")
    .where("plan_id", "is not", null)
    .where("plan_paused_at", "is", null)
    .where("first_failed_at", "is not", null)
    .where("first_failed_at", "<=", failedBy)
    .orderBy("id")
    .limit(limit);
  if (afterId) query = query.where("id", ">", afterId);
  return query.execute();
}

/** Whether another open invoice still holds this plan paused (it stays paused until all are paid). */
export async function otherInvoiceHoldsPlan(trx: Db, planId: string, invoiceId: string): Promise<boolean> {
  const row = await trx
    .selectFrom("invoices")
    .select("id")
    .where("plan_id", "=", planId)
    .where("id", "<>", invoiceId)
    .where("status", "=", "open")
    .where("plan_paused_at", "is not", null)
    .where("plan_resumed_at", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

export type FailedPaymentRow = Pick<
  Invoice,
  | "id"
  | "number"
  | "customer_id"
  | "total_cents"
  | "paid_cents"
  | "charge_attempts"
  | "last_failed_at"
  | "last_failure_reason"
  | "next_charge_on"
  | "plan_paused_at"
> & { email: string; full_name: string | null };

/** The open invoices with a failed charge, the newest failure first (the admin's list). */
export async function listFailedPayments(db: Db, limit: number): Promise<FailedPaymentRow[]> {
  return db
    .selectFrom("invoices as i")
    .innerJoin("users as u", "u.id", "i.customer_id")
    .leftJoin("profiles as p", "p.user_id", "i.customer_id")
    .select([
      "i.id",
      "i.number",
      "i.customer_id",
      "i.total_cents",
      "i.paid_cents",
      "i.charge_attempts",
      "i.last_failed_at",
      "i.last_failure_reason",
      "i.next_charge_on",
      "i.plan_paused_at",
      "u.email",
      "p.full_name",
    ])
    .where("i.status", "=", "open")
    .where("i.first_failed_at", "is not", null)
    .orderBy("i.last_failed_at", "desc")
    .orderBy("i.id")
    .limit(limit)
    .execute();
}

/** The customer's open invoices with a failed charge, the newest failure first (their notice). */
export async function listCustomerFailedPayments(db: Db, customerId: string, limit: number) {
  return db
    .selectFrom("invoices")
    .select(["id", "number", "total_cents", "paid_cents", "last_failure_reason", "next_charge_on", "plan_paused_at"])
    .where("customer_id", "=", customerId)
    .where("status", "=", "open")
    .where("first_failed_at", "is not", null)
    .orderBy("last_failed_at", "desc")
    .limit(limit)
    .execute();
}
