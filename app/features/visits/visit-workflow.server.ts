import { visitCompletedEmail, visitMissedEmail, type VisitEmailContext } from "./visit-emails.server";
import { isAllowed, VISIT_ACTIONS } from "./visit-transitions";
import { getSiteSettings } from "~/content/content.server";
import { creditVisitsOfEndedPlans } from "~/features/billing/ended-plan-credits.server";
import { expireStaleCheckoutsOf } from "~/features/billing/stripe-checkout-expiry.server";
import { LEFT_PLAN_DETAIL } from "~/features/plans/plan-constants";
import { enqueueEmail, wakeOutboxWorker } from "~/features/outbox/outbox.server";
import { queueReviewRequestIfDue, reviewSettings } from "~/features/reviews/review-requests.server";
import { listMediaForVisit } from "~/models/visit-media.server";
import {
  createReturnVisit,
  getVisit,
  recordVisitEvent,
  updateVisitNotes,
  updateVisitStatus,
  type Visit,
} from "~/models/visit.server";
import { wantsVisitEmails } from "~/models/yard-profile.server";
import type { HealthFlag, MissedReason } from "~/features/visits/visit-constants";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { getDb, type Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";

export type VisitActionInput =
  | { action: "complete" | "skip" | "cancel" | "reopen" }
  | { action: "miss"; reason: MissedReason; reasonText?: string }
  | { action: "reschedule" | "return-visit"; serviceDate: Date };

/** Run inside the change's transaction once it is made (an offline change records its key). */
export type InTransaction = (trx: Db) => Promise<void>;

export type VisitActionResult =
  { kind: "done"; visit: Visit; returnVisit?: Visit } | { kind: "not-found" } | { kind: "not-allowed" };

/** A reschedule's history line, in the business's time zone like every date a person reads. */
export function visitMovedDetail(from: Date, to: Date, why?: string) {
  return `From ${formatBusinessDateTime(from)} to ${formatBusinessDateTime(to)}${why ? `: ${why}` : ""}`;
}

async function emailContext(): Promise<VisitEmailContext> {
  const settings = await getSiteSettings();
  return {
    businessName: settings.businessName,
    phone: settings.phone,
    siteUrl: getEnv().SITE_URL,
    tipAmounts: settings.tips?.amounts ?? null,
  };
}

/**
 * One status change of a visit (docs/decisions/030): the change, its history line and its
 * e-mail commit together. The e-mail is only queued here; the outbox worker sends it after the
 * response. A change the visit's status does not allow (now, not when the page was loaded)
 * answers not-allowed, which the route turns into 409. `inTransaction` commits with the change.
 */
export async function applyVisitAction(
  visitId: string,
  input: VisitActionInput,
  actorId: string,
  now = new Date(),
  inTransaction?: InTransaction,
): Promise<VisitActionResult> {
  const db = await getDb();
  const current = await getVisit(visitId);
  if (!current) return { kind: "not-found" };
  const rule = VISIT_ACTIONS[input.action];
  if (!isAllowed(input.action, current.status)) return { kind: "not-allowed" };
  const context = input.action === "complete" || input.action === "miss" ? await emailContext() : null;
  const review = input.action === "complete" ? await reviewSettings() : null;

  let creditedInvoices: string[] = [];
  const result = await db.transaction().execute(async (trx): Promise<VisitActionResult> => {
    if (input.action === "return-visit") {
      // Still missed (another admin may have acted since the page was read)?
      const missed = await trx
        .selectFrom("services")
        .selectAll()
        .where("id", "=", visitId)
        .where("status", "=", "missed")
        .forUpdate()
        .executeTakeFirst();
      if (!missed) return { kind: "not-allowed" };
      // The missed visit's day as the business lives it (a 5 PM visit in Las Vegas is the next day in UTC).
      const note = `Return visit for the missed visit of ${formatBusinessDate(missed.service_date)}`;
      const returnVisit = await createReturnVisit(trx, missed, input.serviceDate, actorId, note);
      if (!returnVisit) return { kind: "not-allowed" };
      await recordVisitEvent(trx, {
        visitId,
        actorId,
        kind: "return_visit",
        detail: `Return visit ${returnVisit.id} scheduled`,
      });
      await recordVisitEvent(trx, {
        visitId: returnVisit.id,
        actorId,
        kind: "return_visit",
        to: "scheduled",
        detail: `Return visit for ${visitId}`,
      });
      return { kind: "done", visit: missed, returnVisit };
    }

    const patch =
      input.action === "miss"
        ? { missed_reason: input.reason, missed_note: input.reasonText || null }
        : input.action === "reschedule"
          ? { service_date: input.serviceDate }
          : input.action === "complete"
            ? { completed_at: now, missed_reason: null, missed_note: null }
            : input.action === "reopen"
              ? { completed_at: null }
              : input.action === "skip"
                ? { skip_reason: "admin" as const }
                : {};
    // Moving, skipping or cancelling a visit made from a plan takes it off the plan (decision
    // 090): no later change of the plan moves, skips or removes it again.
    const updated = await updateVisitStatus(trx, visitId, rule.from, rule.to, patch, {
      leavePlanAt: rule.leavesPlan ? now : undefined,
    });
    if (!updated) return { kind: "not-allowed" };
    await recordVisitEvent(trx, {
      visitId,
      actorId,
      kind: input.action === "reschedule" ? "rescheduled" : "status",
      from: current.status,
      to: updated.status,
      detail:
        input.action === "reschedule"
          ? visitMovedDetail(current.service_date, updated.service_date)
          : input.action === "miss"
            ? `Reason: ${input.reason}${input.reasonText ? ` (${input.reasonText})` : ""}`
            : null,
    });
    // Left the plan with this change (not before it: the first change by hand says so once).
    if (rule.leavesPlan && updated.plan_id && updated.plan_left_at?.getTime() === now.getTime()) {
      await recordVisitEvent(trx, { visitId, actorId, kind: "left_plan", detail: LEFT_PLAN_DETAIL });
    }
    if (context && (input.action === "complete" || input.action === "miss")) {
      await queueVisitEmail(trx, updated, current.customer_email, input.action, context, actorId);
    }
    // The customer's one review request, with the completion that earned it (decision 133).
    if (review) await queueReviewRequestIfDue(trx, updated, current.customer_email, review.rules, review.context, now);
    // A visit we do not make after its plan was cancelled has no next invoice to credit it:
    // a credit note at once (decision 120); nothing for a plan still open or a visit credited.
    if (updated.plan_id && (input.action === "cancel" || (input.action === "miss" && input.reason === "weather"))) {
      creditedInvoices = await creditVisitsOfEndedPlans(trx, [updated.id], now);
    }
    await inTransaction?.(trx);
    return { kind: "done", visit: updated };
  });
  if (creditedInvoices.length > 0) await expireStaleCheckoutsOf(db, creditedInvoices, now);

  if (result.kind === "done") {
    log.info("visit.changed", { visitId, action: input.action, actorId, status: result.visit.status });
    wakeOutboxWorker();
  } else if (result.kind === "not-allowed") {
    log.info("visit.change_refused", { visitId, action: input.action, actorId });
  }
  return result;
}

async function queueVisitEmail(
  trx: Db,
  visit: Visit,
  to: string,
  action: "complete" | "miss",
  context: VisitEmailContext,
  actorId: string,
) {
  if (!(await wantsVisitEmails(trx, visit.customer_id))) {
    await recordVisitEvent(trx, {
      visitId: visit.id,
      actorId,
      kind: "email_skipped",
      detail: "The customer turned off visit e-mails",
    });
    return;
  }
  const kind = action === "complete" ? "visit_completed" : "visit_missed";
  const email =
    action === "complete"
      ? visitCompletedEmail(visit, to, await listMediaForVisit(visit.id, trx), context)
      : visitMissedEmail(visit, to, context);
  await enqueueEmail(trx, {
    kind,
    ...email,
    relatedId: visit.id,
    // One e-mail per outcome: a reopened and again completed visit gets a new one.
    dedupeKey: `${kind}:${visit.id}:${visit.updated_at.getTime()}`,
  });
}

/** The admin's notes on a visit. */
export async function saveVisitNotes(
  visitId: string,
  notes: string | null,
  actorId: string,
  inTransaction?: InTransaction,
) {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const updated = await updateVisitNotes(trx, visitId, { notes });
    if (updated) {
      await recordVisitEvent(trx, { visitId, actorId, kind: "notes", detail: "Notes updated" });
      await inTransaction?.(trx);
    }
    return updated;
  });
}

/** The health observations of a visit (the customer sees them; the completion e-mail has them). */
export async function saveHealthNotes(visitId: string, flags: HealthFlag[], note: string | null, actorId: string) {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const updated = await updateVisitNotes(trx, visitId, { health_flags: flags, health_note: note });
    if (updated) {
      await recordVisitEvent(trx, {
        visitId,
        actorId,
        kind: "health_notes",
        detail: flags.length > 0 ? `Ticked: ${flags.join(", ")}` : "No observations ticked",
      });
    }
    return updated;
  });
}
