/** The admin's page of one visit (client-safe: links and redirects use the same path). */
export const visitPath = (visitId: string) => `/admin-dashboard/visits/${visitId}`;
