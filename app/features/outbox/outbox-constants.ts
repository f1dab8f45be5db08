/** Client-safe outbox words; the value lists live in db/enums.ts (docs/decisions/031, 016). */
import type { OutboxStatus } from "../../../db/enums";

export { OUTBOX_KINDS, OUTBOX_STATUSES, OUTBOX_TEXT_KINDS } from "../../../db/enums";
export type { OutboxKind, OutboxStatus } from "../../../db/enums";

export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: "Waiting to be sent",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  skipped: "Not sent (e-mail is not configured)",
};

/**
 * A row's status for a page: "skipped" with a reason of its own (its moment passed, the number
 * replied STOP: decision 109) is "Not sent", the reason beside it, rather than "e-mail is not
 * configured", which is what a skipped row without one means.
 */
export function outboxStatusLabel(status: OutboxStatus, lastError: string | null) {
  return status === "skipped" && lastError ? "Not sent" : OUTBOX_STATUS_LABELS[status];
}
