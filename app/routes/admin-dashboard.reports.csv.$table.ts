import type { LoaderFunctionArgs } from "@remix-run/node";
import { isReportTableId, REPORT_TABLES } from "~/features/reports/report-definitions";
import { reportCsv } from "~/features/reports/report-csv.server";
import { loadReportTable, parseReportRange } from "~/features/reports/report-tables.server";
import { requireStaff } from "~/features/staff/staff-access.server";
import { businessToday } from "~/features/visits/visit-dates";
import { getDb } from "~/utils/db.server";

const TEXT = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" };

// One report's table as CSV, `?from=YYYY-MM&to=YYYY-MM` (docs/decisions/130). Each table is read
// by whom its page is: a money table by the owner only.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = params.table ?? "";
  // An unknown table is checked against the narrowest capability first: it reveals nothing.
  await requireStaff(request, context, isReportTableId(id) ? REPORT_TABLES[id].capability : "reports");
  if (!isReportTableId(id)) return new Response("No such report.", { status: 404, headers: TEXT });
  const today = businessToday(new Date());
  const { range, error } = parseReportRange(new URL(request.url), today);
  if (error) return new Response(error, { status: 400, headers: TEXT });
  const table = await loadReportTable(await getDb(), id, range, today);
  return new Response(reportCsv(table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${id}-${range.from.slice(0, 7)}-to-${range.to.slice(0, 7)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
