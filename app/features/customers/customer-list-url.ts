import { NO_PLAN_FILTER } from "~/features/plans/plan-constants";

/** The Customers list's URL for its filters, and for the page after a cursor (client-safe). */
export function customerListHref(filters: { q: string; noPlan: boolean }, after?: string | null) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.noPlan) params.set("plan", NO_PLAN_FILTER);
  if (after) params.set("after", after);
  const query = params.toString();
  return query ? `/admin-dashboard/customers?${query}` : "/admin-dashboard/customers";
}
