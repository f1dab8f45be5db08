import type { OutboxKind } from "./outbox-constants";
import { OUTBOX_TEXT_KINDS } from "./outbox-constants";
import { nextTextTime } from "./text-hours";
import { insertOutboxMessage } from "~/models/outbox.server";
import { isOptedOut } from "~/models/text-opt-out.server";
import type { Db } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { isTextConfigured } from "~/utils/texts.server";

export type TextKind = (typeof OUTBOX_TEXT_KINDS)[number];
export const isTextKind = (kind: OutboxKind): kind is TextKind =>
  (OUTBOX_TEXT_KINDS as readonly string[]).includes(kind);

/** Why a text was not stored or will not go. */
export const TEXT_NOT_SET_UP = "Texts are not set up (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM)";
export const TEXT_OPTED_OUT = "The number replied STOP: it is not texted";

/**
 * Stores one text message in the outbox (docs/decisions/097), in the caller's transaction. Held
 * until 8 am when it is queued at night (next_attempt_at); never stored for a number that opted
 * out; kept as 'skipped' when Twilio is not configured. The caller has checked consent.
 */
export async function enqueueText(
  db: Db,
  text: { kind: TextKind; to: string; body: string; dedupeKey?: string; relatedId?: string; now?: Date },
) {
  if (await isOptedOut(db, text.to)) return { queued: false as const, reason: TEXT_OPTED_OUT };
  const configured = isTextConfigured();
  const row = await insertOutboxMessage(db, {
    kind: text.kind,
    to: text.to,
    subject: "Text message",
    text: text.body,
    dedupeKey: text.dedupeKey,
    relatedId: text.relatedId,
    status: configured ? "pending" : "skipped",
    nextAttemptAt: nextTextTime(text.now ?? new Date()),
    lastError: configured ? null : TEXT_NOT_SET_UP,
  });
  if (row) log.info("outbox.enqueued", { outboxId: row.id, kind: row.kind, status: row.status });
  return { queued: Boolean(row) as boolean, row };
}
