/** Client-safe plan words; the value lists live in db/enums.ts (docs/decisions/016). */
import type { CancelReason, SkipReason } from "../../../db/enums";

export { CANCEL_REASONS, PLAN_STATUSES, SKIP_REASONS } from "../../../db/enums";
export type { CancelReason, PlanStatus, SkipReason } from "../../../db/enums";

/** Why a visit is skipped (services.skip_reason), as the admin's pages and the customer read it. */
export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  customer: "Skipped by customer",
  paused: "Paused by customer",
  payment_overdue: "Payment overdue",
  admin: "Skipped by admin",
};

/** What a visit made from a plan says once an admin changed it by hand (docs/decisions/090). */
export const LEFT_PLAN_DETAIL = "Changed by hand: no longer follows the plan";

/**
 * How the history line of a visit the generator cancelled ends: its day closed with no open
 * weekday within 31 days (decision 091). The billing reads it to credit the visit (decision 115).
 */
export const CLOSED_DAY_CANCELLED_DETAIL = "and no weekday within 31 days is open";

/** The Customers list's plan filter (`?plan=none`): customers without a plan that is not cancelled. */
export const NO_PLAN_FILTER = "none";

/** Why a customer left, as the cancel forms ask it and the Reports tab counts it (decision 130). */
export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  moved: "Moved away",
  price: "Price",
  service: "The service",
  no_longer_needed: "No longer needed",
  other: "Other",
};

/** The longest note a cancel form keeps (the column's CHECK, migration 0046). */
export const CANCEL_NOTE_MAX = 500;
