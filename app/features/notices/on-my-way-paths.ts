/** Where "On my way" posts (client-safe). */
export const onMyWayPath = (visitId: string) => `/admin-dashboard/visits/${visitId}/on-my-way`;

/** The pages the form may return to: Today, or the visit's own page. */
export const ON_MY_WAY_RETURNS = ["today", "visit"] as const;
export type OnMyWayReturn = (typeof ON_MY_WAY_RETURNS)[number];
