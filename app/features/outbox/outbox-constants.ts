/**
 * Client-safe lists of the e-mail outbox (docs/decisions/031). Every e-mail of the product is one
 * row of `outbox`, of one of these kinds. A new kind needs a new migration (docs/decisions/003).
 */
export const OUTBOX_KINDS = [
  "visit_completed",
  "visit_missed",
  "quote_owner",
  "quote_visitor",
  "account_verification",
  "account_password_reset",
  "other",
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/**
 * pending: waiting for its first or next attempt (attempts and last_error say which);
 * sending: claimed by a worker (until locked_until, after which another may take it);
 * sent; failed: given up after the last attempt; skipped: no SMTP_URL when it was enqueued.
 */
export const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: "Waiting to be sent",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  skipped: "Not sent (e-mail is not configured)",
};
