import { runBilling } from "~/features/billing/billing-run.server";
import { runPaymentCollection } from "~/features/billing/payment-recovery.server";
import { generatePlanVisits } from "~/features/plans/visit-generator.server";
import { splitComingDays } from "~/features/route/day-split.server";
import { businessToday } from "~/features/visits/visit-dates";
import { purgeExpiredAccountTokens } from "~/models/account-token.server";
import { purgeStaleRateLimits } from "~/models/rate-limit.server";
import { purgeExpiredSignUps } from "~/models/sign-up.server";
import { purgeOldStripeEvents } from "~/models/stripe.server";
import { purgeClosedOptInRequests } from "~/models/text-opt-out.server";
import { purgeExpiredSignInChallenges } from "~/models/two-step.server";
import { getDb } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { purgeExpiredSessions } from "~/utils/session.server";

/**
 * What the queue's jobs run (docs/decisions/114, jobs.server.ts), each with its counts logged. A
 * failure is logged and thrown again, so that the queue retries it with backoff and then parks
 * it. Another run holding a workflow's own lock (a script, or a run pg-boss counted expired that
 * still goes on) is no failure: that run does the work, this one logs that it skipped.
 */

/** Every purge, by name: each deletes rows its table no longer needs and says how many. */
export const PURGE_JOBS: ReadonlyArray<{ name: string; run: () => Promise<number> }> = [
  { name: "sessions", run: purgeExpiredSessions },
  { name: "rate_limits", run: purgeStaleRateLimits },
  { name: "sign_in_challenges", run: purgeExpiredSignInChallenges },
  { name: "account_tokens", run: purgeExpiredAccountTokens },
  { name: "stripe_events", run: async () => purgeOldStripeEvents(await getDb()) },
  { name: "text_opt_in_requests", run: async () => purgeClosedOptInRequests(await getDb()) },
  // Sign-ups at /start a day after their last answer (decision 129).
  { name: "sign_ups", run: async () => purgeExpiredSignUps(await getDb()) },
];

/**
 * One round of every purge; one that fails is logged by name and the others still run. Then it
 * throws if any failed, so that the queue tries the round again (each purge is a plain delete of
 * what is past its line: running one twice deletes nothing more).
 */
export async function runPurgeJobs(jobs = PURGE_JOBS) {
  const failed: string[] = [];
  for (const job of jobs) {
    try {
      const deleted = await job.run();
      log.info("purge.done", { job: job.name, deleted });
    } catch (error) {
      failed.push(job.name);
      log.warn("purge.failed", { job: job.name, ...errorFields(error) });
    }
  }
  if (failed.length > 0) throw new Error(`Purges failed: ${failed.join(", ")}`);
}

/**
 * Awaited between two batches of the generator and the billing run: a timer, so that every
 * request that arrived during a batch is served before the next batch starts.
 */
export const yieldToRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

type RunOptions = { signal?: AbortSignal; now?: Date };

/** One run of the plan visit generator (docs/decisions/091), its counts logged. */
export async function runPlanVisitGeneration({
  signal,
  now = new Date(),
  generate = generatePlanVisits,
}: RunOptions & { generate?: typeof generatePlanVisits } = {}) {
  const started = Date.now();
  try {
    const result = await generate({ now, signal, betweenBatches: yieldToRequests });
    if (result.ran) log.info("plan_visits.done", { ...result, ms: Date.now() - started });
    else log.info("plan_visits.skipped", { reason: "another generator holds the lock" });
    return result;
  } catch (error) {
    log.warn("plan_visits.failed", errorFields(error));
    throw error;
  }
}

/** One billing run (docs/decisions/101), its counts logged. */
export async function runBillingJob({
  signal,
  now = new Date(),
  bill = runBilling,
}: RunOptions & { bill?: typeof runBilling } = {}) {
  const started = Date.now();
  try {
    const result = await bill({ now, signal, betweenBatches: yieldToRequests });
    if (result.ran) log.info("billing_run.done", { ...result, ms: Date.now() - started });
    else log.info("billing_run.skipped", { reason: "another billing run holds the lock" });
    return result;
  } catch (error) {
    log.warn("billing_run.failed", errorFields(error));
    throw error;
  }
}

/**
 * One payment collection (docs/decisions/104) after the billing run: charges and retries due,
 * pauses for overdue payments; its counts logged.
 */
export async function runPaymentCollectionJob({
  signal,
  now = new Date(),
  collect = runPaymentCollection,
}: RunOptions & { collect?: typeof runPaymentCollection } = {}) {
  const started = Date.now();
  try {
    const result = await collect({ now, signal });
    if (result.ran) log.info("payment_collection.done", { ...result, ms: Date.now() - started });
    else log.info("payment_collection.skipped", { reason: "another collection holds the lock" });
    return result;
  } catch (error) {
    log.warn("payment_collection.failed", errorFields(error));
    throw error;
  }
}

/** The day's routes (docs/decisions/126): today and the next 7 days split, counts logged. */
export async function runRouteSplit({ now = new Date() }: { now?: Date } = {}) {
  const started = Date.now();
  try {
    const results = await splitComingDays(businessToday(now));
    log.info("routes.split", {
      days: results.length,
      ran: results.filter((r) => r.ran).length,
      ms: Date.now() - started,
    });
    return results;
  } catch (error) {
    log.warn("routes.split_failed", errorFields(error));
    throw error;
  }
}
