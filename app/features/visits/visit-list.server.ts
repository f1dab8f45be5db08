import { VISIT_STATUSES, type VisitStatus } from "./visit-constants";
import { addDays, businessToday, decodeCursor, encodeCursor, startOfBusinessDay } from "./visit-dates";
import { CUSTOMER_QUERY_MAX_LENGTH } from "./customer-options";
import { SKIP_REASON_LABELS } from "~/features/plans/plan-constants";
import { matchCustomers } from "~/models/customer.server";
import { listVisits } from "~/models/visit.server";
import { formatBusinessDateTime } from "~/utils/business-time";
import { isUuid } from "~/utils/uuid";

export const VISITS_PAGE_SIZE = 50;
// Two years (and a leap day): a customer's "All visits" link asks for the last year and the
// next one. Keyset paging keeps a page's cost the same whatever the range.
const MAX_RANGE_DAYS = 731;

/**
 * The admin's Visits list from its URL (`from`, `to`, `status`, `customer`, `q`, `after`):
 * defaults to today and the next 6 days; a value that makes no sense is reported and replaced
 * by its default (answered with 400). `q` keeps the visits of the customers whose name or
 * e-mail contains it (the Customers list's search).
 */
export async function loadVisitList(url: URL) {
  const problems: string[] = [];
  const today = businessToday();
  let from = url.searchParams.get("from") || today;
  if (!startOfBusinessDay(from)) {
    problems.push(`"${from}" is not a date.`);
    from = today;
  }
  let to = url.searchParams.get("to") || addDays(from, 6);
  if (!startOfBusinessDay(to)) {
    problems.push(`"${to}" is not a date.`);
    to = addDays(from, 6);
  }
  if (to < from || startOfBusinessDay(addDays(from, MAX_RANGE_DAYS))! < startOfBusinessDay(to)!) {
    problems.push("Choose an end date after the start date, at most two years later.");
    to = addDays(from, 6);
  }
  const requested = url.searchParams.get("status") || null;
  const status = VISIT_STATUSES.find((value) => value === requested) as VisitStatus | undefined;
  if (requested && !status) problems.push(`There is no status "${requested}".`);
  const customerParam = url.searchParams.get("customer") || null;
  const customerId = customerParam && isUuid(customerParam) ? customerParam : undefined;
  if (customerParam && !customerId) problems.push("That customer does not exist.");
  let q = (url.searchParams.get("q") ?? "").trim();
  if (q.length > CUSTOMER_QUERY_MAX_LENGTH) {
    problems.push(`Search for at most ${CUSTOMER_QUERY_MAX_LENGTH} characters.`);
    q = "";
  }
  const afterParam = url.searchParams.get("after");
  const after = decodeCursor(afterParam);
  if (afterParam && !after) problems.push("That page does not exist; showing the first page.");

  const rows = await listVisits({
    from: startOfBusinessDay(from)!,
    to: startOfBusinessDay(addDays(to, 1))!,
    status,
    customerId,
    customers: q ? await matchCustomers(q) : undefined,
    after,
    limit: VISITS_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, VISITS_PAGE_SIZE);
  const last = page.at(-1);
  const next = rows.length > VISITS_PAGE_SIZE && last ? encodeCursor({ date: last.service_date, id: last.id }) : null;
  return {
    problems,
    filters: { from, to, status: status ?? null, customer: customerId ?? null, q, paged: Boolean(after) },
    next,
    visits: page.map((row) => ({
      id: row.id,
      serviceType: row.service_type,
      date: row.service_date.toISOString(),
      dateLabel: formatBusinessDateTime(row.service_date),
      status: row.status,
      fromPlan: row.plan_id !== null,
      skipReason: row.status === "skipped" && row.skip_reason ? SKIP_REASON_LABELS[row.skip_reason] : null,
      customerId: row.customer_id,
      customer: row.customer_name ?? row.customer_email,
      address: [row.street, row.city, row.zip].filter(Boolean).join(", ") || null,
    })),
  };
}
