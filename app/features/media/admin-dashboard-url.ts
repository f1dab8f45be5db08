export type AdminVisitsTab = "create" | "upload";

/**
 * The admin's place on "Services & Uploads": tab, current visit and chosen customer live in the
 * URL. Here in media, not visits: the upload answers with it, and features/visits may use media
 * but never the other way round (docs/decisions/016).
 */
export function adminDashboardUrl(tab: AdminVisitsTab, visitId?: string | null, customerId?: string | null) {
  const params = new URLSearchParams({ tab });
  if (visitId) params.set("service", visitId);
  if (customerId) params.set("customer", customerId);
  return `/admin-dashboard?${params}`;
}
