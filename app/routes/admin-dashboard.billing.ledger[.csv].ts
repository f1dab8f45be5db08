import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/features/staff/staff-access.server";
import { ledgerCsvStream, parseExportRange } from "~/features/billing/ledger-export.server";
import { businessToday } from "~/features/visits/visit-dates";
import { getDb } from "~/utils/db.server";

// The accountant's export: the customer ledger of a date range as CSV, streamed (admins only;
// docs/decisions/113). `?from=YYYY-MM-DD&to=YYYY-MM-DD`, both days included; by default this month.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "billing");
  const range = parseExportRange(new URL(request.url), businessToday(new Date()));
  if ("error" in range) {
    return new Response(range.error, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  return new Response(ledgerCsvStream(await getDb(), range, { signal: request.signal }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="ledger-${range.from}-to-${range.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
