import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
import { formatBusinessClock } from "./on-my-way.server";
import { getSiteSettings } from "~/content/content.server";
import { wakeOutboxWorker } from "~/features/outbox/outbox.server";
import { enqueueText, TEXT_UNSUBSCRIBED_AT_TWILIO } from "~/features/outbox/texts.server";
import { listOutboxFor } from "~/models/outbox.server";
import { hitRateLimit } from "~/models/rate-limit.server";
import { insertOptInRequest, isOptedOut, latestOptInRequest } from "~/models/text-opt-out.server";
import { getYardProfile } from "~/models/yard-profile.server";
import { getDb } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { isTextConfigured } from "~/utils/texts.server";
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from "~/utils/toast.server";

/** A "Text me again" request waits this long for the number's START (decision 109). */
export const OPT_IN_REQUEST_HOURS = 24;
/** Presses per customer, and per number, in a day: each sends a text to someone's phone. */
export const TEXT_AGAIN_LIMIT = { limit: 3, windowMs: 24 * 3600_000 } as const;

/** "+17025550123" as people write it: "(702) 555-0123". */
export const displayPhone = (e164: string) => parsePhoneNumberFromString(e164)?.formatNational() ?? e164;

export type TextAgainResult =
  | { kind: "sent"; phone: string; at: Date }
  | { kind: "no-number" }
  | { kind: "not-opted-out" }
  | { kind: "not-set-up" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * "Text me again" on Your Yard (docs/decisions/109). The customer's saved number replied STOP:
 * the opt-out is lifted only by the number itself. So this stores a request (open for 24 h) and
 * queues one text to the number asking it to reply START, in one transaction; the webhook's
 * START or YES then clears the opt-out and records the customer's consent anew. Nothing is taken
 * from the form: the number is the one on file. Rate limited per customer and per number.
 */
export async function requestTextAgain(userId: string, now = new Date()): Promise<TextAgainResult> {
  const byUser = await hitRateLimit(`text-again:user:${userId}`, TEXT_AGAIN_LIMIT);
  if (!byUser.allowed) return { kind: "rate-limited", retryAfterSeconds: byUser.retryAfterSeconds };
  const db = await getDb();
  const yard = await getYardProfile(userId);
  const phone = yard?.mobile_phone;
  if (!phone) return { kind: "no-number" };
  if (!(await isOptedOut(db, phone))) return { kind: "not-opted-out" };
  if (!isTextConfigured()) return { kind: "not-set-up" };
  const byNumber = await hitRateLimit(`text-again:phone:${phone}`, TEXT_AGAIN_LIMIT);
  if (!byNumber.allowed) return { kind: "rate-limited", retryAfterSeconds: byNumber.retryAfterSeconds };

  const settings = await getSiteSettings();
  const expiresAt = new Date(now.getTime() + OPT_IN_REQUEST_HOURS * 3600_000);
  const text = await db.transaction().execute(async (trx) => {
    const request = await insertOptInRequest(trx, { userId, phone, expiresAt });
    return enqueueText(trx, {
      kind: "text_opt_in",
      to: phone,
      body: `${settings.businessName}: you asked to get texts about your visits again. Reply START to confirm. About one message per visit. Msg & data rates may apply. To stay opted out, ignore this text.`,
      dedupeKey: `text-opt-in:${request.id}`,
      relatedId: request.id,
      recipientId: userId,
      expiresAt,
      now,
    });
  });
  log.info("texts.opt_in_requested", { userId, queued: text.queued });
  wakeOutboxWorker();
  return { kind: "sent", phone: displayPhone(phone), at: text.row?.next_attempt_at ?? now };
}

export type TextOptOutView = {
  phone: string;
  /** The open request: when it was asked ("10:31 AM"), and whether its text could not go. */
  request: { askedAt: string; undelivered: boolean } | null;
  /** Where to text START from the phone when our text cannot reach it: the number, when known. */
  textStartTo: string | null;
};

/** Your Yard's view of a saved number that replied STOP; null when texts are not stopped. */
export async function textOptOutView(
  yard: { user_id: string; mobile_phone: string | null } | null,
  now = new Date(),
): Promise<TextOptOutView | null> {
  if (!yard?.mobile_phone) return null;
  const db = await getDb();
  if (!(await isOptedOut(db, yard.mobile_phone))) return null;
  const latest = await latestOptInRequest(db, yard.user_id);
  let request: TextOptOutView["request"] = null;
  if (latest && latest.phone === yard.mobile_phone && !latest.confirmed_at && latest.expires_at > now) {
    const [text] = await listOutboxFor(latest.id, 1);
    const undelivered =
      text?.status === "failed" || (text?.status === "skipped" && text.last_error === TEXT_UNSUBSCRIBED_AT_TWILIO);
    request = { askedAt: formatBusinessClock(latest.requested_at), undelivered };
  }
  const from = getEnv().TWILIO_FROM;
  return {
    phone: displayPhone(yard.mobile_phone),
    request,
    textStartTo: from?.startsWith("+") ? displayPhone(from) : null,
  };
}

const YARD = "/customer-dashboard/yard";

/** The "Text me again" post of Your Yard: a redirect back with a toast saying what happened. */
export async function handleTextAgainPost(userId: string, now = new Date()) {
  const result = await requestTextAgain(userId, now);
  switch (result.kind) {
    case "sent":
      return redirectWithSuccess(YARD, {
        message: "Text sent",
        description: `We texted ${result.phone}${result.at > now ? " (after 8 AM, when we send texts)" : ""}. Reply START to it to get texts about your visits again.`,
      });
    case "not-opted-out":
      return redirectWithInfo(YARD, { message: "Texts are on", description: "This number has not replied STOP." });
    case "no-number":
      return redirectWithError(YARD, { message: "Error", description: "Enter your mobile number first." });
    case "not-set-up": {
      const settings = await getSiteSettings();
      return redirectWithError(YARD, {
        message: "Error",
        description: `We cannot send texts right now. Please call us at ${settings.phone}.`,
      });
    }
    case "rate-limited":
      return redirectWithError(YARD, {
        message: "Error",
        description: `"Text me again" works ${TEXT_AGAIN_LIMIT.limit} times a day. Please try again tomorrow.`,
      });
  }
}
