export type AdminServicesTab = "create" | "upload";

/** The admin's place on "Services & Uploads": tab, current service and chosen customer live in the URL. */
export function adminDashboardUrl(tab: AdminServicesTab, serviceId?: string | null, customerId?: string | null) {
  const params = new URLSearchParams({ tab });
  if (serviceId) params.set("service", serviceId);
  if (customerId) params.set("customer", customerId);
  return `/admin-dashboard?${params}`;
}
