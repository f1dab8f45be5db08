import type { VisitStatus } from "./visit-constants";

/**
 * What an admin can do to a visit, from which status, and the status it leads to
 * (docs/decisions/030). Client-safe: the visit page shows only the buttons allowed here, and the
 * workflow refuses anything else with 409, whatever the browser sent.
 *
 * `leavesPlan`: a change by hand, which takes a visit made from a plan off its plan (decision
 * 090): moving, skipping or cancelling it. Completing it or marking it missed is its outcome,
 * not a change to the plan's calendar, and reopening undoes an outcome.
 */
export const VISIT_ACTIONS = {
  complete: { from: ["scheduled"], to: "completed", label: "Mark Completed", leavesPlan: false },
  miss: { from: ["scheduled"], to: "missed", label: "Mark Missed", leavesPlan: false },
  skip: { from: ["scheduled"], to: "skipped", label: "Skip Visit", leavesPlan: true },
  cancel: { from: ["scheduled"], to: "cancelled", label: "Cancel Visit", leavesPlan: true },
  reschedule: { from: ["scheduled"], to: "scheduled", label: "Reschedule", leavesPlan: true },
  /** Creates a new scheduled visit linked to the missed one; the missed one stays missed. */
  "return-visit": { from: ["missed"], to: "missed", label: "Schedule Return Visit", leavesPlan: false },
  reopen: { from: ["completed"], to: "scheduled", label: "Reopen", leavesPlan: false },
} as const satisfies Record<
  string,
  { from: readonly VisitStatus[]; to: VisitStatus; label: string; leavesPlan: boolean }
>;

export type VisitAction = keyof typeof VISIT_ACTIONS;
export const VISIT_ACTION_NAMES = Object.keys(VISIT_ACTIONS) as VisitAction[];

export const isVisitAction = (value: unknown): value is VisitAction =>
  typeof value === "string" && Object.hasOwn(VISIT_ACTIONS, value);

export function isAllowed(action: VisitAction, status: VisitStatus) {
  return (VISIT_ACTIONS[action].from as readonly VisitStatus[]).includes(status);
}

export const VISIT_TOASTS = {
  complete: { message: "Success", description: "Visit marked completed" },
  miss: { message: "Success", description: "Visit marked missed" },
  skip: { message: "Success", description: "Visit skipped" },
  cancel: { message: "Success", description: "Visit cancelled" },
  reschedule: { message: "Success", description: "Visit rescheduled" },
  "return-visit": { message: "Success", description: "Return visit scheduled" },
  reopen: { message: "Success", description: "Visit reopened" },
  notAllowed: { message: "Error", description: "That change is not allowed" },
} as const;
