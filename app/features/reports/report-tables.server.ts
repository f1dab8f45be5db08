import type { LedgerEntryKind } from "../../../db/enums";
import { addMonths, monthOf } from "~/features/billing/billing-rules";
import {
  CANCEL_REASONS,
  CANCEL_REASON_LABELS,
  SKIP_REASONS,
  SKIP_REASON_LABELS,
} from "~/features/plans/plan-constants";
import { MISSED_REASONS, MISSED_REASON_LABELS } from "~/features/visits/visit-constants";
import {
  lastReportRefresh,
  readCancellations,
  readCohorts,
  readFailedPaymentMonths,
  readLedgerByMonth,
  readOpenByDueDay,
  readReportMonths,
  readVisitMonths,
  type MonthRange,
} from "~/models/report.server";
import type { Db } from "~/utils/db.server";
import { monthsBetween } from "./report-refresh.server";
import { REPORT_TABLES, type Cell, type ReportTable, type ReportTableId } from "./report-definitions";
export type { Cell, ReportTable };

/**
 * The Reports tab's tables (issue 38, docs/decisions/130): each one the rows of a month range, the
 * same numbers for its page, its chart and its CSV. Recurring revenue, customers, cohorts and
 * visits come from the nightly aggregates (0047); money and aging from the ledger's and the
 * invoices' tallies, always current and to the cent the Billing tab's reconciliation.
 */

const text = (value: string): Cell => ({ kind: "text", value });
const count = (value: number): Cell => ({ kind: "count", value });
const cents = (value: number): Cell => ({ kind: "cents", value });
/** A share in basis points of a percent (0 to 10000), so it stays an integer. */
const percent = (part: number, whole: number): Cell => ({
  kind: "percent",
  value: whole === 0 ? 0 : Math.round((part * 10000) / whole),
});

const monthLabel = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
/** "Mar 2027" for "2027-03-01". */
export const monthName = (month: string) => monthLabel.format(new Date(`${month}T00:00:00Z`));

/** The longest range a report covers: five years. */
export const MAX_REPORT_MONTHS = 60;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * The range asked for (`from`, `to`: "YYYY-MM", both months included), by default the twelve
 * months up to this one. Anything else is an error to show beside the default range.
 */
export function parseReportRange(url: URL, today: string): { range: MonthRange; error: string | null } {
  const to = monthOf(today);
  const fallback = { from: addMonths(to, -11), to };
  const rawFrom = url.searchParams.get("from")?.trim() || "";
  const rawTo = url.searchParams.get("to")?.trim() || "";
  if (!rawFrom && !rawTo) return { range: fallback, error: null };
  if ((rawFrom && !MONTH.test(rawFrom)) || (rawTo && !MONTH.test(rawTo)))
    return { range: fallback, error: "Enter the months as YYYY-MM (for example 2027-03)." };
  const range = { from: rawFrom ? `${rawFrom}-01` : fallback.from, to: rawTo ? `${rawTo}-01` : fallback.to };
  if (range.to < range.from) return { range: fallback, error: "The first month must come before the last." };
  if (monthsBetween(range.from, range.to).length > MAX_REPORT_MONTHS)
    return { range: fallback, error: "Show at most five years at a time." };
  return { range, error: null };
}

function table(id: ReportTableId, columns: string[], rows: Cell[][]): ReportTable {
  return { id, title: REPORT_TABLES[id].title, columns, rows };
}

/** Rows keyed by month, each month of the range present (a month without data is zeros). */
function byMonth<T extends { month: string }>(rows: readonly T[]) {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(row.month, [...(map.get(row.month) ?? []), row]);
  return (month: string) => map.get(month) ?? [];
}

export async function revenueTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const rows = await readReportMonths(db, range);
  const of = byMonth(rows);
  return table(
    "revenue",
    [
      "Month",
      "Recurring revenue",
      "Paying customers",
      "New",
      "Expansion",
      "Contraction",
      "Churned",
      "Reactivated",
      "Net change",
    ],
    monthsBetween(range.from, range.to).map((month) => {
      const row = of(month)[0];
      const net = row
        ? row.new_cents + row.expansion_cents + row.reactivated_cents - row.contraction_cents - row.churned_cents
        : 0;
      return [
        text(monthName(month)),
        cents(row?.mrr_cents ?? 0),
        count(row?.paying_customers ?? 0),
        cents(row?.new_cents ?? 0),
        cents(row?.expansion_cents ?? 0),
        cents(-(row?.contraction_cents ?? 0)),
        cents(-(row?.churned_cents ?? 0)),
        cents(row?.reactivated_cents ?? 0),
        cents(net),
      ];
    }),
  );
}

export async function customersTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const of = byMonth(await readReportMonths(db, range));
  return table(
    "customers",
    ["Month", "Active", "New", "Lost"],
    monthsBetween(range.from, range.to).map((month) => {
      const row = of(month)[0];
      return [
        text(monthName(month)),
        count(row?.active_customers ?? 0),
        count(row?.new_customers ?? 0),
        count(row?.lost_customers ?? 0),
      ];
    }),
  );
}

export async function cancellationsTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const of = byMonth(await readCancellations(db, range));
  const reasons = [...CANCEL_REASONS, ""] as const;
  return table(
    "cancellations",
    ["Month", ...CANCEL_REASONS.map((reason) => CANCEL_REASON_LABELS[reason]), "Not given", "All"],
    monthsBetween(range.from, range.to).map((month) => {
      const rows = of(month);
      const plans = (reason: string) => rows.find((row) => row.reason === reason)?.plans ?? 0;
      return [
        text(monthName(month)),
        ...reasons.map((reason) => count(plans(reason))),
        count(rows.reduce((sum, row) => sum + row.plans, 0)),
      ];
    }),
  );
}

/** Retention by sign-up month: the share of each month's new customers with a plan k months on. */
export async function retentionTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const rows = await readCohorts(db, range);
  const cohorts = monthsBetween(range.from, range.to);
  const width = cohorts.length;
  const byCell = new Map(rows.map((row) => [`${row.cohort_month}|${row.month}`, row]));
  const sizes = new Map(rows.map((row) => [row.cohort_month, row.cohort_size]));
  return table(
    "retention",
    ["Sign-up month", "Customers", ...Array.from({ length: width }, (_, k) => `Month ${k}`)],
    cohorts.flatMap((cohort, first) => {
      const size = sizes.get(cohort) ?? 0;
      if (size === 0) return [];
      const cells = Array.from({ length: width }, (_, k): Cell => {
        const row = first + k < width ? byCell.get(`${cohort}|${cohorts[first + k]}`) : undefined;
        return row ? percent(row.active, size) : text("");
      });
      return [[text(monthName(cohort)), count(size), ...cells]];
    }),
  );
}

export async function visitsTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const of = byMonth(await readVisitMonths(db, range));
  return table(
    "visits",
    [
      "Month",
      "Completed",
      ...SKIP_REASONS.map((reason) => `Skipped: ${SKIP_REASON_LABELS[reason]}`),
      ...MISSED_REASONS.map((reason) => `Missed: ${MISSED_REASON_LABELS[reason]}`),
      "Return visits completed",
    ],
    monthsBetween(range.from, range.to).map((month) => {
      const rows = of(month);
      const visits = (status: string, reason?: string) =>
        rows
          .filter((row) => row.status === status && (reason === undefined || row.reason === reason))
          .reduce((sum, row) => sum + row.visits, 0);
      // A missed visit recorded without a reason is counted as "Other".
      const missed = (reason: string) => visits("missed", reason) + (reason === "other" ? visits("missed", "") : 0);
      return [
        text(monthName(month)),
        count(visits("completed")),
        ...SKIP_REASONS.map((reason) => count(visits("skipped", reason))),
        ...MISSED_REASONS.map((reason) => count(missed(reason))),
        count(rows.filter((row) => row.status === "completed").reduce((sum, row) => sum + row.return_visits, 0)),
      ];
    }),
  );
}

/**
 * Money by month, from the ledger's tallies: the Billing tab's roll-forward in five figures.
 * Invoiced is net of voids; credited is credit notes (a refund's included); collected is payments
 * less refunds paid out, reversals and disputes lost; still owed is the balance at the month's end.
 */
export async function moneyTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const { opening, months } = await readLedgerByMonth(db, range);
  let balance = opening;
  return table(
    "money",
    ["Month", "Invoiced", "Credited", "Collected", "Written off", "Still owed"],
    monthsBetween(range.from, range.to).map((month) => {
      const sum = (...kinds: LedgerEntryKind[]) =>
        months.filter((row) => row.month === month && kinds.includes(row.kind)).reduce((s, row) => s + row.cents, 0);
      const invoiced = sum("invoice", "invoice_void");
      const credited = -sum("credit_note");
      const collected = -sum("payment", "refund", "payment_reversed", "dispute_lost");
      const writtenOff = -sum("write_off");
      balance += invoiced - credited - collected - writtenOff;
      return [
        text(monthName(month)),
        cents(invoiced),
        cents(credited),
        cents(collected),
        cents(writtenOff),
        cents(balance),
      ];
    }),
  );
}

export const AGING_BUCKETS = [
  { label: "0–30 days", upTo: 30 },
  { label: "31–60 days", upTo: 60 },
  { label: "61–90 days", upTo: 90 },
  { label: "Over 90 days", upTo: Infinity },
] as const;

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** What open invoices owe today by days past their due day (not yet due: 0–30). */
export async function agingTable(db: Db, today: string): Promise<ReportTable> {
  const rows = await readOpenByDueDay(db);
  const buckets = AGING_BUCKETS.map(() => ({ invoices: 0, owed: 0 }));
  for (const row of rows) {
    const late = row.due_on ? Math.max(0, daysBetween(row.due_on, today)) : 0;
    const index = AGING_BUCKETS.findIndex((bucket) => late <= bucket.upTo);
    buckets[index].invoices += row.invoices;
    buckets[index].owed += row.owed;
  }
  const total = buckets.reduce((sum, bucket) => sum + bucket.owed, 0);
  return table(
    "aging",
    ["Days past due", "Invoices", "Owed", "Share"],
    [
      ...AGING_BUCKETS.map((bucket, index) => [
        text(bucket.label),
        count(buckets[index].invoices),
        cents(buckets[index].owed),
        percent(buckets[index].owed, total),
      ]),
      [
        text("All"),
        count(buckets.reduce((sum, bucket) => sum + bucket.invoices, 0)),
        cents(total),
        percent(total, total),
      ],
    ],
  );
}

export async function failedPaymentsTable(db: Db, range: MonthRange): Promise<ReportTable> {
  const of = byMonth(await readFailedPaymentMonths(db, range));
  return table(
    "failed-payments",
    ["Month", "Failed", "Failed amount", "Recovered", "Recovered amount", "Recovered share"],
    monthsBetween(range.from, range.to).map((month) => {
      const row = of(month)[0];
      return [
        text(monthName(month)),
        count(row?.failed ?? 0),
        cents(row?.failed_cents ?? 0),
        count(row?.recovered ?? 0),
        cents(row?.recovered_cents ?? 0),
        percent(row?.recovered ?? 0, row?.failed ?? 0),
      ];
    }),
  );
}

/** A table by its id, for its page and its CSV. */
export function loadReportTable(db: Db, id: ReportTableId, range: MonthRange, today: string): Promise<ReportTable> {
  switch (id) {
    case "revenue":
      return revenueTable(db, range);
    case "money":
      return moneyTable(db, range);
    case "aging":
      return agingTable(db, today);
    case "failed-payments":
      return failedPaymentsTable(db, range);
    case "customers":
      return customersTable(db, range);
    case "cancellations":
      return cancellationsTable(db, range);
    case "retention":
      return retentionTable(db, range);
    case "visits":
      return visitsTable(db, range);
  }
}

/** When the aggregates were made: "as of" on every page that reads them. */
export async function refreshedAt(db: Db): Promise<string | null> {
  const last = await lastReportRefresh(db);
  return last ? new Date(last.refreshed_at).toISOString() : null;
}
