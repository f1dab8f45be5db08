import { customerFeedbackEmail, reviewRequestEmail, type ReviewEmailContext } from "./review-emails.server";
import type { ReviewRequestRules } from "~/content/types";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import {
  claimReviewRequest,
  countCompletedVisits,
  countFeedbackSince,
  hasMissedVisitSince,
  hasReviewRequest,
  insertCustomerFeedback,
  lockCustomerRow,
} from "~/models/review-request.server";
import { getSiteSettings } from "~/content/content.server";
import { wantsVisitEmails } from "~/models/yard-profile.server";
import { getEnv } from "~/utils/env.server";
import type { Db } from "~/utils/db.server";
import { log } from "~/utils/logger.server";

/** "That week": a miss or a private note this recent holds the request back (decision 133). */
export const QUIET_DAYS = 7;
/** Private notes a customer may send a day: the owner's inbox is not anyone's to fill. */
export const FEEDBACK_PER_DAY = 5;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);

/** The owner's review rules and the e-mails' business facts, from Sanity. */
export async function reviewSettings(): Promise<{ rules: ReviewRequestRules; context: ReviewEmailContext }> {
  const settings = await getSiteSettings();
  return {
    rules: settings.reviewRequests,
    context: {
      businessName: settings.businessName,
      phone: settings.phone,
      ownerEmail: settings.email,
      siteUrl: getEnv().SITE_URL,
    },
  };
}

export type ReviewVisit = { id: string; customer_id: string };

/**
 * Called in the transaction that marks a visit completed (applyVisitAction): queues the customer's
 * one review request when this is at least their Nth completed visit, the owner set a review link,
 * the customer still wants visit e-mails, and nothing went wrong that week (no missed visit, no
 * private note). The primary key makes it once per customer even for two completions at once;
 * a request held back is asked again at a later completion.
 */
export async function queueReviewRequestIfDue(
  trx: Db,
  visit: ReviewVisit,
  to: string,
  rules: ReviewRequestRules,
  context: ReviewEmailContext,
  now: Date,
): Promise<boolean> {
  if (!rules.reviewUrl) return false;
  const customerId = visit.customer_id;
  if (await hasReviewRequest(trx, customerId)) return false;
  const completed = await countCompletedVisits(trx, customerId);
  if (completed < rules.afterCompletedVisits) return false;
  if (!(await wantsVisitEmails(trx, customerId))) return false;
  const since = daysBefore(now, QUIET_DAYS);
  if (await hasMissedVisitSince(trx, customerId, since)) {
    log.info("review.request_held", { userId: customerId, visitId: visit.id, why: "missed visit this week" });
    return false;
  }
  if ((await countFeedbackSince(trx, customerId, since)) > 0) {
    log.info("review.request_held", { userId: customerId, visitId: visit.id, why: "private note this week" });
    return false;
  }
  if (!(await claimReviewRequest(trx, customerId, visit.id))) return false;
  await enqueueEmail(trx, {
    kind: "review_request",
    ...reviewRequestEmail(to, completed, rules.reviewUrl, context),
    relatedId: visit.id,
    dedupeKey: `review_request:${customerId}`,
  });
  log.info("review.requested", { userId: customerId, visitId: visit.id, completed });
  return true;
}

export type FeedbackResult = { ok: true } | { ok: false; status: 429; error: string };

/**
 * A customer's private "Tell us what to improve" note: stored, and e-mailed to the owner in the
 * same transaction (the outbox's guarantee). At most FEEDBACK_PER_DAY a day per customer.
 */
export async function sendCustomerFeedback(
  trx: Db,
  customer: { id: string; email: string; name: string | null },
  message: string,
  context: ReviewEmailContext,
  now: Date,
): Promise<FeedbackResult> {
  // One note at a time per customer, so that a burst of posts cannot pass the count together.
  await lockCustomerRow(trx, customer.id);
  if ((await countFeedbackSince(trx, customer.id, daysBefore(now, 1))) >= FEEDBACK_PER_DAY) {
    return { ok: false, status: 429, error: `You have sent several notes today. Please call us at ${context.phone}.` };
  }
  const row = await insertCustomerFeedback(trx, customer.id, message);
  await enqueueEmail(trx, {
    kind: "customer_feedback",
    ...customerFeedbackEmail(customer, message, `${context.siteUrl}/admin-dashboard/customers/${customer.id}`, context),
    relatedId: customer.id,
    dedupeKey: `customer_feedback:${row.id}`,
  });
  log.info("review.feedback_sent", { userId: customer.id });
  return { ok: true };
}
