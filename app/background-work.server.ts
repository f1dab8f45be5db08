import { listenForContentChanges, stopListening } from "./content/content-events.server";
import { runBilling } from "./features/billing/billing-run.server";
import { runPaymentCollection } from "./features/billing/payment-recovery.server";
import { pruneOutbox, startOutboxWorker, stopOutboxWorker } from "./features/outbox/outbox.server";
import { generatePlanVisits } from "./features/plans/visit-generator.server";
import { purgeExpiredAccountTokens } from "./models/account-token.server";
import { purgeStaleRateLimits } from "./models/rate-limit.server";
import { purgeOldStripeEvents } from "./models/stripe.server";
import { purgeClosedOptInRequests } from "./models/text-opt-out.server";
import { purgeExpiredSignInChallenges } from "./models/two-step.server";
import { batchPacer } from "./utils/batch-pacer.server";
import { getDb } from "./utils/db.server";
import { getEnv } from "./utils/env.server";
import { errorFields, log } from "./utils/logger.server";
import { purgeExpiredSessions } from "./utils/session.server";

/**
 * What a server process runs besides answering requests, started by one explicit call from
 * server.js (`serverHooks.startBackgroundWork`, decision 014), never by importing the build.
 */

/** Every purge job, by name: each deletes rows its table no longer needs and says how many. */
export const PURGE_JOBS: ReadonlyArray<{ name: string; run: () => Promise<number> }> = [
  { name: "sessions", run: purgeExpiredSessions },
  { name: "rate_limits", run: purgeStaleRateLimits },
  { name: "sign_in_challenges", run: purgeExpiredSignInChallenges },
  { name: "account_tokens", run: purgeExpiredAccountTokens },
  { name: "stripe_events", run: async () => purgeOldStripeEvents(await getDb()) },
  // Here, not in the outbox worker: that starts only with SMTP or Twilio (decision 109).
  { name: "outbox", run: () => pruneOutbox() },
  { name: "text_opt_in_requests", run: async () => purgeClosedOptInRequests(await getDb()) },
];

const FIRST_PURGE_MS = 60_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** One round of every purge job; one that fails is logged by name and the others still run. */
export async function runPurgeJobs(jobs = PURGE_JOBS) {
  for (const job of jobs) {
    try {
      const deleted = await job.run();
      log.info("purge.done", { job: job.name, deleted });
    } catch (error) {
      log.warn("purge.failed", { job: job.name, ...errorFields(error) });
    }
  }
}

const PLAN_VISITS_EVERY_MS = 60 * 60 * 1000;

/**
 * One run of the plan visit generator (docs/decisions/091), its counts logged; a failure is
 * logged and the next hour tries again. Another machine holding the lock is not a failure: the
 * answer is then false (that machine's round bills too, decision 099), otherwise true.
 */
export async function runPlanVisitGeneration({
  signal,
  betweenBatches,
  now = new Date(),
  generate = generatePlanVisits,
}: {
  signal?: AbortSignal;
  betweenBatches?: () => Promise<void>;
  now?: Date;
  generate?: typeof generatePlanVisits;
} = {}): Promise<boolean> {
  const started = Date.now();
  try {
    const result = await generate({ now, signal, betweenBatches });
    if (result.ran) log.info("plan_visits.done", { ...result, ms: Date.now() - started });
    else log.info("plan_visits.skipped", { reason: "another generator holds the lock" });
    return result.ran;
  } catch (error) {
    log.warn("plan_visits.failed", errorFields(error));
    return true;
  }
}

/**
 * One billing run (docs/decisions/101), its counts logged; like the generator, a failure is
 * logged and the next hour tries again, and another machine holding the lock is not a failure.
 */
export async function runBillingJob({
  signal,
  betweenBatches,
  now = new Date(),
  bill = runBilling,
}: {
  signal?: AbortSignal;
  betweenBatches?: () => Promise<void>;
  now?: Date;
  bill?: typeof runBilling;
} = {}) {
  const started = Date.now();
  try {
    const result = await bill({ now, signal, betweenBatches });
    if (result.ran) log.info("billing_run.done", { ...result, ms: Date.now() - started });
    else log.info("billing_run.skipped", { reason: "another billing run holds the lock" });
  } catch (error) {
    log.warn("billing_run.failed", errorFields(error));
  }
}

/**
 * One payment collection (docs/decisions/104) after the billing run: charges and retries due,
 * pauses for overdue payments. Logged like the others; a failure waits for the next hour.
 */
export async function runPaymentCollectionJob({
  signal,
  now = new Date(),
  collect = runPaymentCollection,
}: { signal?: AbortSignal; now?: Date; collect?: typeof runPaymentCollection } = {}) {
  const started = Date.now();
  try {
    const result = await collect({ now, signal });
    if (result.ran) log.info("payment_collection.done", { ...result, ms: Date.now() - started });
    else log.info("payment_collection.skipped", { reason: "another collection holds the lock" });
  } catch (error) {
    log.warn("payment_collection.failed", errorFields(error));
  }
}

/**
 * One scheduled round (decision 099): the generator, the billing run and the payment collection
 * (decision 104), the first two paced between their batches so that requests keep the machine.
 * When another process holds the generator's lock, that process's round bills and collects as
 * well: this one skips both, so no two machines run the jobs side by side (each job's own lock
 * already keeps it to one machine).
 */
export async function runScheduledRound({
  signal,
  generate = runPlanVisitGeneration,
  bill = runBillingJob,
  collect = runPaymentCollectionJob,
  pace = () => batchPacer(),
}: {
  signal?: AbortSignal;
  generate?: typeof runPlanVisitGeneration;
  bill?: typeof runBillingJob;
  collect?: typeof runPaymentCollectionJob;
  pace?: () => () => Promise<void>;
} = {}) {
  const generated = await generate({ signal, betweenBatches: pace() });
  if (!generated) {
    log.info("billing_run.skipped", { reason: "another machine's round holds the generator" });
    return;
  }
  await bill({ signal, betweenBatches: pace() });
  await collect({ signal });
}

export type BackgroundWork = { stop(): Promise<void> };
let started: BackgroundWork | undefined;

/**
 * Starts this process's background work once: migrations (so the first visitor does not wait
 * for them), the purge jobs (a minute after start, then hourly), the plan visit generator, the
 * billing run and the payment collection (SCHEDULED_WORK_DELAY_SECONDS after start, two minutes
 * by default, then hourly; one round at a time in this process: decisions 099, 104), the LISTEN
 * connection that hears
 * publishes from every machine (PostgreSQL only), and the e-mail outbox worker (decisions 031,
 * 034: every machine runs one; SKIP LOCKED shares the rows). Timers are unref'd: none keeps a
 * process alive.
 */
export function startBackgroundWork(): BackgroundWork {
  if (started) return started;
  void getDb().catch(() => {
    // Logged by getDb; the health check reports it.
  });
  const purge = () => void runPurgeJobs();
  const first = setTimeout(purge, FIRST_PURGE_MS).unref();
  const hourly = setInterval(purge, PURGE_EVERY_MS).unref();
  const stopping = new AbortController();
  let generating: Promise<void> | undefined;
  const generate = () => {
    generating ??= runScheduledRound({ signal: stopping.signal }).finally(() => (generating = undefined));
  };
  // The first round waits: the first requests after a start (a deploy) have the machine.
  let hourlyGeneration: NodeJS.Timeout | undefined;
  const firstGeneration = setTimeout(() => {
    generate();
    hourlyGeneration = setInterval(generate, PLAN_VISITS_EVERY_MS).unref();
  }, getEnv().SCHEDULED_WORK_DELAY_SECONDS * 1000).unref();
  listenForContentChanges();
  startOutboxWorker();
  const work: BackgroundWork = {
    async stop() {
      clearTimeout(first);
      clearInterval(hourly);
      clearTimeout(firstGeneration);
      clearInterval(hourlyGeneration);
      // A run in progress stops after its current batch (what it made stays made).
      stopping.abort();
      await generating;
      stopOutboxWorker();
      await stopListening();
      started = undefined;
    },
  };
  started = work;
  return work;
}
