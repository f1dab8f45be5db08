import { sql } from "kysely";
import type { CancelReason, LedgerEntryKind } from "../../db/schema";
import { BUSINESS_TIME_ZONE } from "~/utils/business-time";
import type { Db } from "~/utils/db.server";

/**
 * Table access for the Reports tab (issue 38, docs/decisions/130): what the nightly refresh reads
 * (plans with their price history, visits and failed charges by month), the aggregates it writes
 * (migration 0047), and the tallies the money report reads (0019, 0021, 0037).
 */

/** A plan as the recurring-revenue report needs it, with its past prices (plan_changes). */
export type ReportPlanRow = {
  id: string;
  customer_id: string;
  start_date: string;
  cancelled_at: Date | null;
  cancel_reason: CancelReason | null;
  price_cents: number | null;
  add_on_cents: number | null;
  pending_price_cents: number | null;
  pending_add_on_cents: number | null;
  pending_price_from: string | null;
  /** Each change's day and the monthly price before it, by day. */
  changes: { from_day: string; old_monthly_cents: number | null }[];
};

/**
 * The plans of the next `limit` customers after `afterCustomer` (by id), each customer's plans
 * together, so a batch holds whole customers.
 */
export async function listReportPlanBatch(
  db: Db,
  afterCustomer: string | null,
  limit: number,
): Promise<ReportPlanRow[]> {
  const { rows } = await sql<ReportPlanRow>`
    with batch as (
      select distinct customer_id from customer_plans
      where ${afterCustomer === null ? sql`true` : sql`customer_id > ${afterCustomer}`}
      order by customer_id limit ${limit}
    )
    select p.id, p.customer_id, p.start_date, p.cancelled_at, p.cancel_reason, p.price_cents, p.add_on_cents,
      p.pending_price_cents, p.pending_add_on_cents, p.pending_price_from,
      coalesce((select json_agg(json_build_object('from_day', c.from_day, 'old_monthly_cents', c.old_monthly_cents)
          order by c.from_day, c.created_at)
        from plan_changes c where c.plan_id = p.id), '[]'::json) as changes
    from customer_plans p join batch b on b.customer_id = p.customer_id
    order by p.customer_id, p.start_date, p.id`.execute(db);
  return rows.map((row) => ({
    ...row,
    changes: (typeof row.changes === "string" ? JSON.parse(row.changes) : row.changes).map(
      (change: { from_day: string; old_monthly_cents: number | null }) => ({
        from_day: String(change.from_day).slice(0, 10),
        old_monthly_cents: change.old_monthly_cents,
      }),
    ),
  }));
}

export type VisitMonthRow = {
  month: string;
  status: "completed" | "skipped" | "missed";
  reason: string;
  visits: number;
  return_visits: number;
};

/** Completed, skipped and missed visits by month (the business's calendar) and reason. */
export async function countVisitsByMonth(db: Db): Promise<VisitMonthRow[]> {
  const { rows } = await sql<VisitMonthRow>`
    select to_char(date_trunc('month', service_date at time zone ${BUSINESS_TIME_ZONE}), 'YYYY-MM-DD') as month,
      status, coalesce(skip_reason, missed_reason, '') as reason,
      count(*)::int as visits, count(return_visit_of)::int as return_visits
    from services where status in ('completed', 'skipped', 'missed')
    group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  return rows;
}

export type FailedPaymentMonthRow = {
  month: string;
  failed: number;
  failed_cents: number;
  recovered: number;
  recovered_cents: number;
};

/** Invoices by the month their first charge failed; recovered: paid since. */
export async function countFailedPaymentsByMonth(db: Db): Promise<FailedPaymentMonthRow[]> {
  const { rows } = await sql<FailedPaymentMonthRow>`
    select to_char(date_trunc('month', first_failed_at at time zone ${BUSINESS_TIME_ZONE}), 'YYYY-MM-DD') as month,
      count(*)::int as failed, sum(total_cents)::int8 as failed_cents,
      (count(*) filter (where status = 'paid'))::int as recovered,
      coalesce(sum(total_cents) filter (where status = 'paid'), 0)::int8 as recovered_cents
    from invoices where first_failed_at is not null
    group by 1 order by 1`.execute(db);
  return rows.map((row) => ({
    ...row,
    failed_cents: Number(row.failed_cents),
    recovered_cents: Number(row.recovered_cents),
  }));
}

export type ReportMonthRow = {
  month: string;
  mrr_cents: number;
  paying_customers: number;
  new_cents: number;
  expansion_cents: number;
  contraction_cents: number;
  churned_cents: number;
  reactivated_cents: number;
  active_customers: number;
  new_customers: number;
  lost_customers: number;
};
export type CancellationRow = { month: string; reason: string; plans: number };
export type CohortRow = { cohort_month: string; month: string; cohort_size: number; active: number };

export type ReportAggregates = {
  months: ReportMonthRow[];
  cancellations: CancellationRow[];
  cohorts: CohortRow[];
  visits: VisitMonthRow[];
  failedPayments: FailedPaymentMonthRow[];
};

const INSERT_CHUNK = 1000;

async function inChunks<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let at = 0; at < rows.length; at += INSERT_CHUNK) await insert(rows.slice(at, at + INSERT_CHUNK));
}

/** Replaces every aggregate in one transaction: a reader sees the old set or the new, never half. */
export async function replaceReportAggregates(db: Db, aggregates: ReportAggregates, tookMs: number, now: Date) {
  await db.transaction().execute(async (trx) => {
    await sql`delete from report_months`.execute(trx);
    await sql`delete from report_cancellations`.execute(trx);
    await sql`delete from report_cohorts`.execute(trx);
    await sql`delete from report_visit_months`.execute(trx);
    await sql`delete from report_failed_payment_months`.execute(trx);
    await inChunks(aggregates.months, (rows) => trx.insertInto("report_months").values(rows).execute());
    await inChunks(aggregates.cancellations, (rows) => trx.insertInto("report_cancellations").values(rows).execute());
    await inChunks(aggregates.cohorts, (rows) => trx.insertInto("report_cohorts").values(rows).execute());
    await inChunks(aggregates.visits, (rows) => trx.insertInto("report_visit_months").values(rows).execute());
    await inChunks(aggregates.failedPayments, (rows) =>
      trx.insertInto("report_failed_payment_months").values(rows).execute(),
    );
    await trx
      .insertInto("report_refreshes")
      .values({ id: 1, refreshed_at: now, took_ms: tookMs })
      .onConflict((oc) => oc.column("id").doUpdateSet({ refreshed_at: now, took_ms: tookMs }))
      .execute();
  });
}

export async function lastReportRefresh(db: Db): Promise<{ refreshed_at: Date; took_ms: number } | null> {
  return (await db.selectFrom("report_refreshes").select(["refreshed_at", "took_ms"]).executeTakeFirst()) ?? null;
}

/** Months are "YYYY-MM-01"; a range is [from, to], both included. */
export type MonthRange = { from: string; to: string };

const numbers = <T extends object>(row: T): T =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      key.endsWith("month") || key === "reason" || key === "status" ? value : Number(value),
    ]),
  ) as T;

export async function readReportMonths(db: Db, range: MonthRange): Promise<ReportMonthRow[]> {
  const rows = await db
    .selectFrom("report_months")
    .selectAll()
    .where("month", ">=", range.from)
    .where("month", "<=", range.to)
    .orderBy("month")
    .execute();
  return rows.map((row) => numbers(row) as unknown as ReportMonthRow);
}

export async function readCancellations(db: Db, range: MonthRange): Promise<CancellationRow[]> {
  const rows = await db
    .selectFrom("report_cancellations")
    .selectAll()
    .where("month", ">=", range.from)
    .where("month", "<=", range.to)
    .orderBy("month")
    .orderBy("reason")
    .execute();
  return rows.map((row) => numbers(row));
}

export async function readCohorts(db: Db, range: MonthRange): Promise<CohortRow[]> {
  const rows = await db
    .selectFrom("report_cohorts")
    .selectAll()
    .where("cohort_month", ">=", range.from)
    .where("cohort_month", "<=", range.to)
    .where("month", "<=", range.to)
    .orderBy("cohort_month")
    .orderBy("month")
    .execute();
  return rows.map((row) => numbers(row));
}

export async function readVisitMonths(db: Db, range: MonthRange): Promise<VisitMonthRow[]> {
  const rows = await db
    .selectFrom("report_visit_months")
    .selectAll()
    .where("month", ">=", range.from)
    .where("month", "<=", range.to)
    .orderBy("month")
    .orderBy("status")
    .orderBy("reason")
    .execute();
  return rows.map((row) => numbers(row));
}

export async function readFailedPaymentMonths(db: Db, range: MonthRange): Promise<FailedPaymentMonthRow[]> {
  const rows = await db
    .selectFrom("report_failed_payment_months")
    .selectAll()
    .where("month", ">=", range.from)
    .where("month", "<=", range.to)
    .orderBy("month")
    .execute();
  return rows.map((row) => numbers(row) as unknown as FailedPaymentMonthRow);
}

/** The ledger's entries by month and kind, summed over the shards (0037): before `from` as one. */
export async function readLedgerByMonth(
  db: Db,
  range: MonthRange,
): Promise<{ opening: number; months: { month: string; kind: LedgerEntryKind; cents: number }[] }> {
  const { rows } = await sql<{ month: string | null; kind: LedgerEntryKind | null; cents: string | number }>`
    select null as month, null as kind, coalesce(sum(amount_cents), 0) as cents from ledger_tallies where month < ${range.from}
    union all
    select to_char(month, 'YYYY-MM-DD'), kind, sum(amount_cents) from ledger_tallies
    where month >= ${range.from} and month <= ${range.to} group by month, kind`.execute(db);
  let opening = 0;
  const months: { month: string; kind: LedgerEntryKind; cents: number }[] = [];
  for (const row of rows) {
    if (row.month === null || row.kind === null) opening = Number(row.cents);
    else months.push({ month: row.month, kind: row.kind, cents: Number(row.cents) });
  }
  return { opening, months };
}

/** What open invoices still owe, by due day, summed over the shards (0019, 0037). */
export async function readOpenByDueDay(db: Db): Promise<{ due_on: string | null; invoices: number; owed: number }[]> {
  const { rows } = await sql<{ due_on: string | null; invoices: string | number; owed: string | number }>`
    select to_char(due_on, 'YYYY-MM-DD') as due_on, sum(invoices) as invoices, sum(total_cents - paid_cents) as owed
    from invoice_tallies where status = 'open' group by due_on`.execute(db);
  return rows.map((row) => ({ due_on: row.due_on, invoices: Number(row.invoices), owed: Number(row.owed) }));
}
