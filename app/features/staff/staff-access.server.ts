import {
  hasStaffSession,
  requireStaffSession,
  type RequestContext,
  type SignedInUser,
} from "~/features/accounts/auth.server";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { isVisitAssignedBetween } from "~/models/visit.server";
import { redirectWithError } from "~/utils/toast.server";
import type { Role } from "../../../db/enums";
import { roleAllows, staffHome, TECHNICIAN_DAYS_AHEAD, type Capability } from "./capabilities";

/** A signed-in staff member whose session passed two-step (decision 123). */
export type StaffUser = SignedInUser & { staffRole: Role };

export const ROLE_REFUSED = {
  message: "Access Denied",
  description: "Your staff role does not allow this.",
};

async function refuse(role: Role): Promise<never> {
  throw await redirectWithError(staffHome(role), ROLE_REFUSED);
}

/**
 * Every staff loader and action, one call per capability (docs/decisions/123): the anonymous to
 * /auth, a customer to their dashboard, two-step as decision 024 has it for every role, and a
 * role without the capability to its own home with "Access Denied". Throws the refusal.
 */
export async function requireStaff(
  request: Request,
  context: RequestContext,
  capability: Capability,
): Promise<StaffUser> {
  const user = (await requireStaffSession(request, context)) as StaffUser;
  if (!roleAllows(user.staffRole, capability)) await refuse(user.staffRole);
  return user;
}

/** The days a technician reaches: today and the next 7, as [from, to) instants. */
export function technicianWindow(now = new Date()) {
  const today = businessToday(now);
  return { from: startOfBusinessDay(today)!, to: startOfBusinessDay(addDays(today, TECHNICIAN_DAYS_AHEAD + 1))! };
}

/** Whether this staff member may work this visit: office and owner any, a technician their own. */
export async function canReachVisit(user: Pick<StaffUser, "id" | "staffRole">, visitId: string, now = new Date()) {
  if (user.staffRole !== "technician") return roleAllows(user.staffRole, "field");
  const { from, to } = technicianWindow(now);
  return isVisitAssignedBetween(visitId, user.id, from, to);
}

/**
 * Loaders and actions about one visit (its page, On my way, its uploads): `field`, and for a
 * technician only a visit assigned to them of today or the next 7 days. A visit out of reach is
 * refused as a missing capability is, so an id tells a technician nothing about other routes.
 */
export async function requireVisitInReach(
  request: Request,
  context: RequestContext,
  visitId: string,
): Promise<StaffUser> {
  const user = await requireStaff(request, context, "field");
  if (!(await canReachVisit(user, visitId))) await refuse(user.staffRole);
  return user;
}

/** Whether Today shows every visit of the day or only the viewer's (a technician's). */
export function todayScopeFor(user: StaffUser): { assignedTo?: string } {
  return user.staffRole === "technician" ? { assignedTo: user.id } : {};
}

/**
 * Whose media a signed-in user may open (the media route never redirects: a refusal is a 404):
 * office and owner every visit's, a technician their window's assigned visits', anyone their own.
 */
export function mediaViewerOf(user: SignedInUser) {
  if (!hasStaffSession(user) || !user.staffRole) return { id: user.id, allVisits: false };
  if (user.staffRole === "technician") return { id: user.id, allVisits: false, assignedBetween: technicianWindow() };
  return { id: user.id, allVisits: roleAllows(user.staffRole, "field") };
}
