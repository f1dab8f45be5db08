import { roleAllows } from "~/features/staff/capabilities";
import type { StaffUser } from "~/features/staff/staff-access.server";
import { businessToday } from "~/features/visits/visit-dates";
import { getDb } from "~/utils/db.server";
import { MONEY_REPORT_TABLES, OPERATIONS_REPORT_TABLES, type ReportTableId } from "./report-definitions";
import { loadReportTable, parseReportRange, refreshedAt } from "./report-tables.server";

/**
 * What a Reports page shows (issue 38, docs/decisions/130): its tables for the range asked for,
 * when the nightly aggregates were made, and whether the other page is the reader's to open.
 */
async function loadReports(url: URL, tables: readonly ReportTableId[], now = new Date()) {
  const today = businessToday(now);
  const { range, error } = parseReportRange(url, today);
  const db = await getDb();
  const [loaded, asOf] = await Promise.all([
    Promise.all(tables.map((id) => loadReportTable(db, id, range, today))),
    refreshedAt(db),
  ]);
  return { range, error, today, asOf, tables: loaded };
}

export async function loadOperationsReports(url: URL, user: StaffUser) {
  return { ...(await loadReports(url, OPERATIONS_REPORT_TABLES)), mayReadMoney: roleAllows(user.staffRole, "reports") };
}

export async function loadMoneyReports(url: URL) {
  return loadReports(url, MONEY_REPORT_TABLES);
}
