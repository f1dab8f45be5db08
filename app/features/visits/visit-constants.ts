/** Client-safe visit words; the value lists live in db/enums.ts (docs/decisions/016). */
import type { HealthFlag, MissedReason } from "../../../db/enums";

export { HEALTH_FLAGS, MISSED_REASONS, VISIT_EVENT_KINDS, VISIT_STATUSES, VISIT_TYPES } from "../../../db/enums";
export type { HealthFlag, MissedReason, VisitEventKind, VisitStatus, VisitType } from "../../../db/enums";

/** Why a visit was missed: the label on the form and in the e-mail. */
export const MISSED_REASON_LABELS: Record<MissedReason, string> = {
  locked_gate: "Locked gate",
  dog_in_yard: "Dog in yard",
  weather: "Weather",
  other: "Other",
};

/** The health observations an admin can tick on a visit, as people read them. */
export const HEALTH_FLAG_LABELS: Record<HealthFlag, string> = {
  loose_stool: "Loose stool",
  blood_in_stool: "Blood in stool",
  worms_or_foreign_objects: "Worms or foreign objects",
  unusual_amount: "Unusual amount",
  yard_hazard: "Yard hazard found",
};
export const VET_ADVICE = "Consider contacting your veterinarian.";
