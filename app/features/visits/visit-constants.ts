/**
 * Client-safe lists of the visit capability (the `services` table keeps the spec's name). This
 * is their one home: forms, badges and db/schema.ts's column types read them from here. The
 * CHECK constraints of each migration carry their own frozen copy; `db/migrations.test.ts`
 * proves that the database and these lists agree, so changing a list needs a new migration.
 */
export const SERVICE_TYPES = [
  "Weekly Service",
  "Twice Weekly Service",
  "Desert Dash",
  "Desert Refresh",
  "Yard Refresh",
  "Sanitize & Deodorize",
  "Trash Bin Clean",
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const SERVICE_STATUSES = ["scheduled", "in_progress", "completed", "skipped", "cancelled"] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
