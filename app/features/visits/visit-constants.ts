/**
 * Client-safe lists of the visit capability (the `services` table keeps the spec's name). This
 * is their one home: forms, badges and db/schema.ts's column types read them from here. The
 * CHECK constraints of each migration carry their own frozen copy; `db/migrations.test.ts`
 * proves that the database and these lists agree, so changing a list needs a new migration.
 */
export const VISIT_TYPES = [
  "Weekly Service",
  "Twice Weekly Service",
  "Desert Dash",
  "Desert Refresh",
  "Yard Refresh",
  "Sanitize & Deodorize",
  "Trash Bin Clean",
] as const;
export type VisitType = (typeof VISIT_TYPES)[number];

// "in_progress" left in migration 0003 (docs/decisions/030): nothing set it, and a visit in the
// field is still "scheduled" until it has an outcome.
export const VISIT_STATUSES = ["scheduled", "completed", "missed", "skipped", "cancelled"] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

/** Why a visit was missed: the reason's value and the label on the form and in the e-mail. */
export const MISSED_REASONS = ["locked_gate", "dog_in_yard", "weather", "other"] as const;
export type MissedReason = (typeof MISSED_REASONS)[number];
export const MISSED_REASON_LABELS: Record<MissedReason, string> = {
  locked_gate: "Locked gate",
  dog_in_yard: "Dog in yard",
  weather: "Weather",
  other: "Other",
};

/** The health observations an admin can tick on a visit. */
export const HEALTH_FLAGS = [
  "loose_stool",
  "blood_in_stool",
  "worms_or_foreign_objects",
  "unusual_amount",
  "yard_hazard",
] as const;
export type HealthFlag = (typeof HEALTH_FLAGS)[number];
export const HEALTH_FLAG_LABELS: Record<HealthFlag, string> = {
  loose_stool: "Loose stool",
  blood_in_stool: "Blood in stool",
  worms_or_foreign_objects: "Worms or foreign objects",
  unusual_amount: "Unusual amount",
  yard_hazard: "Yard hazard found",
};
export const VET_ADVICE = "Consider contacting your veterinarian.";

/** What the visit history records. */
export const VISIT_EVENT_KINDS = [
  "status",
  "rescheduled",
  "return_visit",
  "notes",
  "health_notes",
  "media_deleted",
  "email_skipped",
] as const;
export type VisitEventKind = (typeof VISIT_EVENT_KINDS)[number];
