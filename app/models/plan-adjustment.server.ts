import { sql } from "kysely";
import type { Db } from "~/utils/db.server";

/** Table access for plan changes' terms and their adjustments of months (docs/decisions/117). */

/** The months from `fromMonth` on for which the plan has an invoice that is not void. */
export async function listBilledMonths(db: Db, planId: string, fromMonth: string): Promise<string[]> {
  const rows = await db
    .selectFrom("invoices")
    .select("period_month")
    .where("plan_id", "=", planId)
    .where("period_month", ">=", fromMonth)
    .where("status", "<>", "void")
    .orderBy("period_month")
    .execute();
  return rows.map((row) => dayText(row.period_month));
}

export async function insertPlanChange(
  trx: Db,
  change: {
    planId: string;
    fromDay: string;
    oldWeekdays: readonly number[];
    oldMonthlyCents: number | null;
    byDays: boolean;
  },
): Promise<string> {
  const row = await trx
    .insertInto("plan_changes")
    .values({
      plan_id: change.planId,
      from_day: change.fromDay,
      old_weekdays: [...change.oldWeekdays],
      old_monthly_cents: change.oldMonthlyCents,
      by_days: change.byDays,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertPlanAdjustments(
  trx: Db,
  rows: readonly { planId: string; changeId: string; month: string; amountCents: number; description: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto("plan_adjustments")
    .values(
      rows.map((row) => ({
        plan_id: row.planId,
        change_id: row.changeId,
        month: row.month,
        amount_cents: row.amountCents,
        description: row.description,
      })),
    )
    .execute();
}

export type PlanChangeTerms = {
  plan_id: string;
  from_day: string;
  old_weekdays: number[];
  old_monthly_cents: number | null;
};

/** The changes of these plans, oldest first by the day they apply from. */
export async function listPlanChanges(db: Db, planIds: readonly string[]): Promise<PlanChangeTerms[]> {
  if (planIds.length === 0) return [];
  const rows = await db
    .selectFrom("plan_changes")
    .select(["plan_id", "from_day", "old_weekdays", "old_monthly_cents"])
    .where("plan_id", "in", [...planIds])
    .orderBy("plan_id")
    .orderBy("from_day")
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({ ...row, from_day: dayText(row.from_day) }));
}

export type PlanChangeHistory = {
  from_day: string;
  old_weekdays: number[];
  old_monthly_cents: number | null;
  by_days: boolean;
};

/** A plan's changes in the order they were made (a later one decides the days from its own day on). */
export async function listPlanChangeHistory(db: Db, planId: string): Promise<PlanChangeHistory[]> {
  const rows = await db
    .selectFrom("plan_changes")
    .select(["from_day", "old_weekdays", "old_monthly_cents", "by_days"])
    .where("plan_id", "=", planId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, from_day: dayText(row.from_day) }));
}

export type UnbilledAdjustment = {
  id: string;
  plan_id: string;
  month: string;
  amount_cents: number;
  description: string;
};

/**
 * The adjustments of these plans not settled yet: on no invoice (a partial index serves it), and
 * not given back on a credit note (a cancellation's, decision 120).
 */
export async function listUnbilledAdjustments(db: Db, planIds: readonly string[]): Promise<UnbilledAdjustment[]> {
  if (planIds.length === 0) return [];
  const rows = await db
    .selectFrom("plan_adjustments as a")
    .select(["a.id", "a.plan_id", "a.month", "a.amount_cents", "a.description"])
    .where("a.plan_id", "in", [...planIds])
    .where("a.invoice_id", "is", null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("credit_note_lines as c").select("c.id").whereRef("c.adjustment_id", "=", "a.id"))),
    )
    .orderBy("a.created_at")
    .orderBy("a.id")
    .execute();
  return rows.map((row) => ({ ...row, month: dayText(row.month) }));
}

/** The negative adjustments (money owed back) billed on this invoice: a void gives them back. */
export async function listCreditAdjustmentsOn(db: Db, invoiceId: string): Promise<UnbilledAdjustment[]> {
  const rows = await db
    .selectFrom("plan_adjustments")
    .select(["id", "plan_id", "month", "amount_cents", "description"])
    .where("invoice_id", "=", invoiceId)
    .where("amount_cents", "<", 0)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, month: dayText(row.month) }));
}

/**
 * Marks adjustments as billed on the invoices just inserted (the caller's transaction), only those
 * still unbilled: answers the ids it marked.
 */
export async function markAdjustmentsBilled(
  trx: Db,
  billed: readonly { adjustmentId: string; invoiceId: string }[],
): Promise<Set<string>> {
  if (billed.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    update plan_adjustments a set invoice_id = b.invoice_id
    from (select unnest(${sql.val(billed.map((b) => b.adjustmentId))}::uuid[]) as id,
                 unnest(${sql.val(billed.map((b) => b.invoiceId))}::uuid[]) as invoice_id) b
    where a.id = b.id and a.invoice_id is null
    returning a.id`.execute(trx);
  return new Set(rows.map((row) => row.id));
}

function dayText(value: string | Date): string {
  return typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}
