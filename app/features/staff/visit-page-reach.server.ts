import type { loadAdminVisit } from "~/features/visits/visit-page.server";
import { roleAllows } from "./capabilities";
import { canReachVisit, type StaffUser } from "./staff-access.server";
import { yardForViewer } from "./gate-code.server";

type VisitPage = Awaited<ReturnType<typeof loadAdminVisit>>;

/** Where a technician's "back" goes: their own visits (decision 128). */
export const MY_VISITS_PATH = "/admin-dashboard/visits/mine";

/** The list a visit's page and Today lead back to: the Visits list, or a technician's own. */
export function visitsListFor(staff: Pick<StaffUser, "staffRole">) {
  return roleAllows(staff.staffRole, "visits")
    ? { to: "/admin-dashboard/visits", label: "All visits" }
    : { to: MY_VISITS_PATH, label: "My visits" };
}

/**
 * The visit page as this staff member may see it (decision 128): every link leads somewhere
 * they may go, and a gate code stays out of the page for those who must ask for it. Office and
 * owner get the page as it is. A technician gets no link to the customer's page or the plan
 * (both refused to them), "My visits" as the way back, a return visit's link only when that
 * visit is in their reach, and the yard without its code.
 */
export async function visitPageFor(staff: StaffUser, page: VisitPage) {
  const needToKnow = !roleAllows(staff.staffRole, "customers");
  const yard = yardForViewer(page.yard, needToKnow);
  if (!needToKnow) return { ...page, yard, needToKnow };
  const { visit } = page;
  const [returnVisitOfInReach, returnVisitInReach] = await Promise.all([
    visit.returnVisitOf ? canReachVisit(staff, visit.returnVisitOf) : false,
    visit.returnVisit ? canReachVisit(staff, visit.returnVisit.id) : false,
  ]);
  return {
    ...page,
    yard,
    needToKnow,
    customer: { ...page.customer, href: null },
    visit: {
      ...visit,
      back: visitsListFor(staff),
      plan: visit.plan ? { ...visit.plan, href: null } : null,
      returnVisitOf: returnVisitOfInReach ? visit.returnVisitOf : null,
      returnVisit: returnVisitInReach ? visit.returnVisit : null,
    },
  };
}
