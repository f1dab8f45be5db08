import type { OutboxKind } from "./outbox-constants";
import { OUTBOX_TEXT_KINDS } from "./outbox-constants";
import { wakeOutboxWorkerAfterCommit } from "./outbox-wake.server";
import { nextTextTime } from "./text-hours";
import { insertOutboxMessage } from "~/models/outbox.server";
import { isOptedOut, recordOptOut } from "~/models/text-opt-out.server";
import { revokeTextConsent } from "~/models/yard-profile.server";
import type { Db } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { isTextConfigured } from "~/utils/texts.server";

export type TextKind = (typeof OUTBOX_TEXT_KINDS)[number];
export const isTextKind = (kind: OutboxKind): kind is TextKind =>
  (OUTBOX_TEXT_KINDS as readonly string[]).includes(kind);

/**
 * The "Text me again" confirmation goes to a number that replied STOP, at its customer's own
 * request in the portal, and needs no standing consent (it asks for it); every other text needs
 * both: the number not opted out, and the customer's "Text me" (docs/decisions/109).
 */
export const isOptInConfirmation = (kind: OutboxKind) => kind === "text_opt_in";

/** Why a text was not stored or will not go. */
export const TEXT_NOT_SET_UP = "Texts are not set up (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM)";
export const TEXT_OPTED_OUT = "The number replied STOP: it is not texted";
export const TEXT_NO_CONSENT = "The customer no longer agrees to texts at this number: not sent";
export const TEXT_UNSUBSCRIBED_AT_TWILIO =
  "Twilio refused it: the number replied STOP to Twilio (error 21610); recorded as opted out";
/** Twilio refused the number itself (invalid, or not a mobile): the customer must give another. */
export const textNumberRefused = (code: number) =>
  `Twilio refused the number: it cannot take texts (error ${code}); not retried`;
export const TEXT_ALREADY_OPTED_IN = "The number opted in again meanwhile: no confirmation needed";
/** A time-bound message (e-mail or text) whose moment passed: dropped, never sent. */
export const MESSAGE_EXPIRED = "Its time passed before it could be sent: dropped, not sent";
export const TEXT_EXPIRED_BEFORE_HOURS = "Its time passed before texts may be sent (8 am to 8 pm): not sent";

/**
 * A number opts out (a STOP word in the webhook, or Twilio's 21610): recorded by number, and
 * consent is revoked on every profile that has it (the FCC's 2025 rule: a STOP revokes consent),
 * so that Your Yard no longer shows "Text me" ticked. Pass the caller's transaction.
 */
export async function optOutNumber(db: Db, phone: string) {
  await recordOptOut(db, phone);
  await revokeTextConsent(db, phone);
}

/**
 * Stores one text message in the outbox (docs/decisions/097, 109), in the caller's transaction.
 * Held until 8 am when it is queued at night (next_attempt_at), unless its moment (`expiresAt`)
 * passes before then: it is then kept as skipped, never sent. Never stored for a number that
 * opted out (but for the opt-in confirmation); kept as 'skipped' when Twilio is not configured.
 * The caller has checked consent; `recipientId` names the customer, whose consent is checked
 * again when it is sent.
 */
export async function enqueueText(
  db: Db,
  text: {
    kind: TextKind;
    to: string;
    body: string;
    dedupeKey?: string;
    relatedId?: string;
    recipientId: string;
    expiresAt?: Date;
    now?: Date;
  },
) {
  if (!isOptInConfirmation(text.kind) && (await isOptedOut(db, text.to))) {
    return { queued: false as const, reason: TEXT_OPTED_OUT };
  }
  const configured = isTextConfigured();
  const at = nextTextTime(text.now ?? new Date());
  const tooLate = text.expiresAt !== undefined && at.getTime() >= text.expiresAt.getTime();
  const row = await insertOutboxMessage(db, {
    kind: text.kind,
    to: text.to,
    subject: "Text message",
    text: text.body,
    dedupeKey: text.dedupeKey,
    relatedId: text.relatedId,
    recipientId: text.recipientId,
    expiresAt: text.expiresAt,
    status: configured && !tooLate ? "pending" : "skipped",
    nextAttemptAt: at,
    lastError: !configured ? TEXT_NOT_SET_UP : tooLate ? TEXT_EXPIRED_BEFORE_HOURS : null,
  });
  if (row) log.info("outbox.enqueued", { outboxId: row.id, kind: row.kind, status: row.status });
  if (row?.status === "pending") wakeOutboxWorkerAfterCommit();
  return { queued: Boolean(row) as boolean, row };
}
