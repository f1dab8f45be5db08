export type AdminVisitsTab = "create" | "upload";

/** The admin's place on "Services & Uploads": tab, current visit and chosen customer live in the URL. */
export function adminDashboardUrl(tab: AdminVisitsTab, visitId?: string | null, customerId?: string | null) {
  const params = new URLSearchParams({ tab });
  if (visitId) params.set("service", visitId);
  if (customerId) params.set("customer", customerId);
  return `/admin-dashboard?${params}`;
}
