import type { Role } from "../../../db/enums";

/**
 * What each staff role may do (docs/decisions/123): the one table the permission helpers, the
 * admin layout's tabs and the role matrix test all read. A technician's `field` is narrowed to
 * the visits assigned to them (requireVisitInReach); every other capability is all or nothing.
 */
export const CAPABILITIES = [
  "staff-area",
  "field",
  "visits",
  "customers",
  "bookings",
  "quotes",
  "billing",
  "staff",
  // The Reports tab (decision 130): `reports` shows money (owner only), `operations-reports`
  // the customers and visits reports, no money (owner and office).
  "reports",
  "operations-reports",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ALLOWED: Record<Role, readonly Capability[]> = {
  owner: CAPABILITIES,
  office: ["staff-area", "field", "visits", "customers", "bookings", "quotes", "billing", "operations-reports"],
  technician: ["staff-area", "field"],
};

export function roleAllows(role: Role | null, capability: Capability): boolean {
  return role !== null && ALLOWED[role].includes(capability);
}

/** How the Staff page and e-mails name a role. */
export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  office: "Office",
  technician: "Technician",
};

/** What a technician reaches: visits of today and the next 7 days (business days). */
export const TECHNICIAN_DAYS_AHEAD = 7;

/** Where a staff member lands after signing in: a technician works from Today. */
export function staffHome(role: Role): string {
  return role === "technician" ? "/admin-dashboard/visits/today" : "/admin-dashboard";
}
