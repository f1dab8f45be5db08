import { NO_PLAN_FILTER } from "~/features/plans/plan-constants";
import { describeWeekdays } from "~/features/plans/plan-schedule";
import { listOpenPlansForCustomers } from "~/models/customer-plan.server";
import { searchCustomers } from "~/models/customer.server";
import { formatBusinessDate } from "~/utils/business-time";
import { isUuid } from "~/utils/uuid";

export const CUSTOMERS_PAGE_SIZE = 25;

/** The cursor of the next page: "<email>~<id>" (an e-mail never contains "~" followed by a uuid). */
function decodeCursor(value: string | null) {
  if (!value) return null;
  const at = value.lastIndexOf("~");
  const email = value.slice(0, at);
  const id = value.slice(at + 1);
  return at > 0 && isUuid(id) ? { email, id } : null;
}

/** "Weekly Swift Service · Tuesday", and "· Paused" while it is paused. */
export function describeOpenPlan(plan: { catalogue_plan_name: string; weekdays: readonly number[]; status: string }) {
  return [plan.catalogue_plan_name, describeWeekdays(plan.weekdays), plan.status === "paused" ? "Paused" : null]
    .filter(Boolean)
    .join(" · ");
}

/**
 * The admin's Customers list from its URL (`q`, `plan=none`, `after`): server-side search by name
 * or e-mail, optionally only the customers without a plan, keyset-paged in e-mail order
 * (decisions 033, 064, 094); each row says the customer's plan that is not cancelled, if any.
 * A bad value is a 400 (thrown), never a 500.
 */
export async function loadCustomerList(url: URL) {
  const q = (url.searchParams.get("q") ?? "").trim();
  if (q.length > 100) throw new Response("Search for at most 100 characters", { status: 400 });
  const planParam = url.searchParams.get("plan") || null;
  if (planParam && planParam !== NO_PLAN_FILTER) throw new Response("There is no such plan filter", { status: 400 });
  const withoutPlan = planParam === NO_PLAN_FILTER;
  const afterParam = url.searchParams.get("after");
  const after = decodeCursor(afterParam);
  if (afterParam && !after) throw new Response("That page does not exist", { status: 400 });

  const rows = await searchCustomers({ q: q || undefined, withoutPlan, after, limit: CUSTOMERS_PAGE_SIZE + 1 });
  const page = rows.slice(0, CUSTOMERS_PAGE_SIZE);
  // The page's plans by its customers' ids (at most 25 probes of the one-open-plan index), not
  // a join before the LIMIT (decision 077).
  const plans = withoutPlan ? [] : await listOpenPlansForCustomers(page.map((c) => c.id));
  const planOf = new Map(plans.map((plan) => [plan.customer_id, describeOpenPlan(plan)]));
  const last = page.at(-1);
  return {
    q,
    noPlan: withoutPlan,
    paged: Boolean(after),
    next: rows.length > CUSTOMERS_PAGE_SIZE && last ? `${last.email}~${last.id}` : null,
    customers: page.map((c) => ({
      id: c.id,
      email: c.email,
      name: c.full_name,
      verified: c.email_verified_at !== null,
      since: formatBusinessDate(c.created_at),
      plan: planOf.get(c.id) ?? null,
    })),
  };
}
