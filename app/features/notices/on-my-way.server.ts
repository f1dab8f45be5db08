import { getSiteSettings } from "~/content/content.server";
import { enqueueEmail, wakeOutboxWorker } from "~/features/outbox/outbox.server";
import { enqueueText } from "~/features/outbox/texts.server";
import { businessToday } from "~/features/visits/visit-dates";
import { lockVisitForOnMyWay, markOnMyWay } from "~/models/on-my-way.server";
import { recordVisitEvent } from "~/models/visit.server";
import { getDb } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { isUuid } from "~/utils/uuid";
import { BUSINESS_TIME_ZONE } from "~/utils/business-time";

/** The arrival window the notice promises, from its start. */
export const ARRIVAL_WINDOW_MINUTES = 30;
/** An estimate passed in (the route's) further than this from now is not believed. */
const MAX_ESTIMATE_AHEAD_MS = 12 * 3600_000;

const clock = new Intl.DateTimeFormat("en-US", { timeZone: BUSINESS_TIME_ZONE, hour: "numeric", minute: "2-digit" });
/** "10:30 AM" in the business's time zone. */
export const formatBusinessClock = (at: Date | string) => clock.format(new Date(at)).replace(/\u202f/g, " ");

export type OnMyWayResult =
  | { kind: "sent"; at: Date; window: string; texted: boolean }
  | { kind: "already"; at: Date }
  | { kind: "not-found" }
  | { kind: "not-scheduled" }
  | { kind: "not-today" };

/**
 * "On my way" (docs/decisions/097): once per visit, for a scheduled visit of today (business
 * day). Marks the visit and queues, in the same transaction, the e-mail to the customer and,
 * when they agreed to texts, a text (held until 8 am if it is night; skipped without Twilio).
 * `estimate`: the route's estimated arrival, when known; else the window starts now.
 */
export async function sendOnMyWay(input: {
  visitId: string;
  adminId: string;
  now?: Date;
  estimate?: Date | null;
}): Promise<OnMyWayResult> {
  if (!isUuid(input.visitId)) return { kind: "not-found" };
  const now = input.now ?? new Date();
  const db = await getDb();
  const settings = await getSiteSettings();
  const result = await db.transaction().execute(async (trx): Promise<OnMyWayResult> => {
    const visit = await lockVisitForOnMyWay(trx, input.visitId);
    if (!visit) return { kind: "not-found" };
    if (visit.on_my_way_at) return { kind: "already", at: visit.on_my_way_at };
    if (visit.status !== "scheduled") return { kind: "not-scheduled" };
    const day = businessToday(visit.service_date);
    if (day !== businessToday(now)) return { kind: "not-today" };

    const estimate = input.estimate;
    const believable =
      estimate &&
      estimate.getTime() >= now.getTime() &&
      estimate.getTime() - now.getTime() <= MAX_ESTIMATE_AHEAD_MS &&
      businessToday(estimate) === businessToday(now);
    const from = believable ? estimate : now;
    const until = new Date(from.getTime() + ARRIVAL_WINDOW_MINUTES * 60_000);
    const window = `${formatBusinessClock(from)} – ${formatBusinessClock(until)}`;
    const link = new URL(`/customer-dashboard/visits/${visit.id}`, getEnv().SITE_URL).href;

    await markOnMyWay(trx, visit.id, now);
    await enqueueEmail(trx, {
      kind: "on_my_way",
      to: visit.customer_email,
      subject: "Your technician is on the way",
      text: [
        `Hi${visit.customer_name ? ` ${visit.customer_name}` : ""},`,
        "",
        `Your technician is on the way for your ${visit.service_type} visit.`,
        `Estimated arrival: between ${window} today.`,
        "",
        `See your visit: ${link}`,
        "",
        `Questions? Call us at ${settings.phone}.`,
        "",
        settings.businessName,
      ].join("\n"),
      // One per visit and day (decision 108): a visit moved to another day sends its own.
      dedupeKey: `on-my-way:${visit.id}:${day}`,
      relatedId: visit.id,
      // After the window it would tell the customer something untrue (decision 109).
      expiresAt: until,
    });
    let texted = false;
    if (visit.mobile_phone && visit.text_consent_at) {
      const text = await enqueueText(trx, {
        kind: "text_on_my_way",
        to: visit.mobile_phone,
        body: `${settings.businessName}: your technician is on the way, arriving ${window}. Questions? ${settings.phone}. Reply STOP to opt out.`,
        dedupeKey: `text-on-my-way:${visit.id}:${day}`,
        relatedId: visit.id,
        recipientId: visit.customer_id,
        expiresAt: until,
        now,
      });
      // Stored as skipped without Twilio: the customer is told by e-mail only.
      texted = text.queued && text.row?.status === "pending";
    }
    // The visit's History says who set out and what the customer was told (migration 0018).
    await recordVisitEvent(trx, {
      visitId: visit.id,
      actorId: input.adminId,
      kind: "on_my_way",
      detail: `On my way sent ${texted ? "by e-mail and text" : "by e-mail"}, arriving ${window}`,
    });
    return { kind: "sent", at: now, window, texted };
  });
  if (result.kind === "sent") {
    log.info("visit.on_my_way", { visitId: input.visitId, adminId: input.adminId, texted: result.texted });
    wakeOutboxWorker();
  }
  return result;
}
