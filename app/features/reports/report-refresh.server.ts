import { addMonths, lastDayOf, monthOf } from "~/features/billing/billing-rules";
import { priceForMonth, totalCents } from "~/features/billing/plan-prices";
import { businessToday } from "~/features/visits/visit-dates";
import {
  countFailedPaymentsByMonth,
  countVisitsByMonth,
  listReportPlanBatch,
  replaceReportAggregates,
  type CancellationRow,
  type CohortRow,
  type ReportAggregates,
  type ReportMonthRow,
  type ReportPlanRow,
} from "~/models/report.server";
import type { Db } from "~/utils/db.server";

/**
 * The Reports tab's nightly aggregates (issue 38, docs/decisions/130): every plan read once, in
 * batches of whole customers, each customer's recurring revenue worked out month by month with
 * the billing code's own price function, and the months' sums, movements, cohorts and
 * cancellations written in one transaction. Visits and failed charges are counted by the
 * database, grouped by month. The reports then read a few hundred rows, never the big tables.
 */

const CUSTOMERS_PER_BATCH = 2000;

/**
 * A plan's monthly price at the end of `month`, as billing prices it: a plan change after that
 * day kept the price before it (plan_changes.old_monthly_cents, decision 117); otherwise the
 * price locked on the plan, or the new one from its day (priceForMonth, decision 116). A weekly
 * plan's monthly price is what a month is billed: 52/12 visits, never 4 times a visit's rate.
 */
export function planMonthlyCents(plan: ReportPlanRow, month: string, end = lastDayOf(month)): number {
  const later = plan.changes.find((change) => change.from_day > end);
  if (later && later.old_monthly_cents !== null) return later.old_monthly_cents;
  const price = priceForMonth(plan, month);
  return price ? totalCents(price) : 0;
}

const cancelledDay = (plan: ReportPlanRow) => (plan.cancelled_at ? businessToday(new Date(plan.cancelled_at)) : null);

/** A plan with the days the loop compares worked out once (a business day costs an Intl call). */
type PlanDays = { plan: ReportPlanRow; start: string; cancelled: string | null };

/** Whether the plan is open (started, not cancelled) on `end`, the last day of a month. */
const openOn = (days: PlanDays, end: string) => days.start <= end && (days.cancelled === null || days.cancelled > end);

/** The months from `first` to `last`, both included ("YYYY-MM-01"). */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = first; month <= last; month = addMonths(month, 1)) months.push(month);
  return months;
}

type Tally = {
  months: ReportMonthRow[];
  cancellations: Map<string, number>;
  cohorts: Map<string, { size: number; active: number[] }>;
};

function emptyMonth(month: string): ReportMonthRow {
  return {
    month,
    mrr_cents: 0,
    paying_customers: 0,
    new_cents: 0,
    expansion_cents: 0,
    contraction_cents: 0,
    churned_cents: 0,
    reactivated_cents: 0,
    active_customers: 0,
    new_customers: 0,
    lost_customers: 0,
  };
}

/** One customer's plans added to the months: revenue and its movement, customers, cohort. */
function addCustomer(
  tally: Tally,
  months: readonly string[],
  monthEnds: readonly string[],
  rows: readonly ReportPlanRow[],
) {
  const plans: PlanDays[] = rows.map((plan) => ({ plan, start: plan.start_date, cancelled: cancelledDay(plan) }));
  const firstStart = plans.reduce((first, plan) => (plan.start < first ? plan.start : first), "9999-12-31");
  const cohort = monthOf(firstStart);
  const cohortIndex = months.indexOf(cohort);
  let previousCents = 0;
  let previousActive = false;
  let everPaid = false;
  for (let index = 0; index < months.length; index++) {
    const month = months[index];
    const open = plans.filter((days) => openOn(days, monthEnds[index]));
    const cents = open.reduce((sum, days) => sum + planMonthlyCents(days.plan, month, monthEnds[index]), 0);
    const row = tally.months[index];
    row.mrr_cents += cents;
    if (cents > 0) row.paying_customers += 1;
    if (previousCents === 0 && cents > 0) {
      if (everPaid) row.reactivated_cents += cents;
      else row.new_cents += cents;
    } else if (previousCents > 0 && cents === 0) row.churned_cents += previousCents;
    else if (cents > previousCents) row.expansion_cents += cents - previousCents;
    else if (cents < previousCents) row.contraction_cents += previousCents - cents;
    if (cents > 0) everPaid = true;
    const active = open.length > 0;
    if (active) row.active_customers += 1;
    if (previousActive && !active) row.lost_customers += 1;
    if (index === cohortIndex) row.new_customers += 1;
    if (cohortIndex >= 0 && index >= cohortIndex) {
      const entry = tally.cohorts.get(cohort) ?? { size: 0, active: new Array<number>(months.length).fill(0) };
      if (index === cohortIndex) entry.size += 1;
      if (active) entry.active[index] += 1;
      tally.cohorts.set(cohort, entry);
    }
    previousCents = cents;
    previousActive = active;
  }
  for (const { plan, cancelled } of plans) {
    if (cancelled === null) continue;
    const key = `${monthOf(cancelled)}|${plan.cancel_reason ?? ""}`;
    tally.cancellations.set(key, (tally.cancellations.get(key) ?? 0) + 1);
  }
}

/** Works out every aggregate from the tables, as of `now`; pure reads. */
export async function computeReportAggregates(
  db: Db,
  now: Date,
  options: { signal?: AbortSignal } = {},
): Promise<ReportAggregates> {
  const thisMonth = monthOf(businessToday(now));
  const [visits, failedPayments] = await Promise.all([countVisitsByMonth(db), countFailedPaymentsByMonth(db)]);
  // The months from the first plan's start (so nobody is "already there" before the first month).
  const { first } = (await db
    .selectFrom("customer_plans")
    .select((eb) => eb.fn.min("start_date").as("first"))
    .executeTakeFirst()) ?? { first: null };
  const firstMonth = first ? monthOf(String(first).slice(0, 10)) : thisMonth;
  const months = monthsBetween(firstMonth < thisMonth ? firstMonth : thisMonth, thisMonth);
  const monthEnds = months.map(lastDayOf);
  const tally: Tally = { months: months.map(emptyMonth), cancellations: new Map(), cohorts: new Map() };

  let after: string | null = null;
  for (;;) {
    if (options.signal?.aborted) throw new Error("The reports refresh was stopped");
    const batch = await listReportPlanBatch(db, after, CUSTOMERS_PER_BATCH);
    if (batch.length === 0) break;
    let start = 0;
    for (let index = 1; index <= batch.length; index++) {
      if (index === batch.length || batch[index].customer_id !== batch[start].customer_id) {
        addCustomer(tally, months, monthEnds, batch.slice(start, index));
        start = index;
      }
    }
    after = batch[batch.length - 1].customer_id;
  }

  const cancellations: CancellationRow[] = [...tally.cancellations].map(([key, plans]) => {
    const [month, reason] = key.split("|");
    return { month, reason, plans };
  });
  const cohorts: CohortRow[] = [...tally.cohorts].flatMap(([cohort, entry]) =>
    months.flatMap((month, index) =>
      month >= cohort ? [{ cohort_month: cohort, month, cohort_size: entry.size, active: entry.active[index] }] : [],
    ),
  );
  return {
    months: tally.months,
    cancellations,
    cohorts,
    visits: visits.filter((row) => row.month <= thisMonth),
    failedPayments,
  };
}

/** The job's work: compute, then replace the aggregates in one transaction. */
export async function refreshReports(db: Db, options: { now?: Date; signal?: AbortSignal } = {}) {
  const now = options.now ?? new Date();
  const started = performance.now();
  const aggregates = await computeReportAggregates(db, now, options);
  const tookMs = Math.round(performance.now() - started);
  await replaceReportAggregates(db, aggregates, tookMs, now);
  return { months: aggregates.months.length, customers: aggregates.months.at(-1)?.active_customers ?? 0, tookMs };
}
