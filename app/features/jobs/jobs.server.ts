import { z } from "zod";
import {
  runBillingJob,
  runPaymentCollectionJob,
  runPlanVisitGeneration,
  runPurgeJobs,
  runRouteSplit,
} from "./job-runs.server";
import type { runBilling } from "~/features/billing/billing-run.server";
import type { runPaymentCollection } from "~/features/billing/payment-recovery.server";
import { deliverPass, OUTBOX_DRAIN_JOB, pruneOutbox } from "~/features/outbox/outbox.server";
import type { generatePlanVisits } from "~/features/plans/visit-generator.server";
import { refreshReports } from "~/features/reports/report-refresh.server";
import { startOfBusinessDay } from "~/features/visits/visit-dates";
import { getDb } from "~/utils/db.server";
import type { JobContext, JobDefinition } from "~/utils/job-queue.server";
import { errorFields, log } from "~/utils/logger.server";

/**
 * Every job of the queue (docs/decisions/114): its payload's schema, retries with backoff then
 * parked, its concurrency, its schedule (cron in the business's time zone). Each is idempotent
 * (the generator's unique visit slot, the billing run's unique plan and period, the collection's
 * per-attempt idempotency keys at Stripe, the outbox's per-row claim), so a run killed midway and
 * retried makes nothing twice.
 */

export const JOB_NAMES = {
  visits: "visits:generate",
  billing: "billing:run",
  collect: "billing:collect",
  purges: "purges",
  outboxDrain: OUTBOX_DRAIN_JOB,
  outboxPrune: "outbox:prune",
  reports: "reports:refresh",
  routes: "routes:split",
} as const;

/**
 * The round's jobs: `{}` acts now; `date` acts as that business day's first instant (decision
 * 112, what `--date` does); `round` chains the next job of the round after this one (the
 * generator, then the billing run, then the collection: decision 099's order).
 */
const roundPayload = z
  .object({
    date: z
      .string()
      .refine((day) => startOfBusinessDay(day) !== null, "not a day (YYYY-MM-DD)")
      .optional(),
    round: z.boolean().optional(),
  })
  .strict();
type RoundPayload = z.infer<typeof roundPayload>;

const nothing = z.object({}).strict();

/**
 * The drain's payload: `{}` sends what is due; `now` (`npm run outbox:send`, after an outage) also
 * sends what waits out its backoff and tries failed messages once more, then prunes.
 */
const drainPayload = z.object({ now: z.boolean().optional() }).strict();
type DrainPayload = z.infer<typeof drainPayload>;

/**
 * What is due now. The outbox's claims share rows between machines; a pass that was not full, or
 * had a failure (the server may be down), ends the run.
 */
async function drainDue() {
  const total = { sent: 0, failed: 0 };
  for (;;) {
    const pass = await deliverPass({ limit: 200 });
    total.sent += pass.sent;
    total.failed += pass.failed;
    if (pass.claimed < 200 || pass.failed > 0 || pass.claimed === pass.held) return total;
  }
}

/**
 * Everything, backoff or not, failed ones once more, then the prune. Stops at the first failing
 * batch rather than hammer a server that is down; a pass of dropped messages (expired, opted out)
 * is not the end, but one of texts held until the morning is: they would be claimed again and again.
 */
async function drainNow() {
  const total = { sent: 0, failed: 0, pruned: 0 };
  for (;;) {
    const pass = await deliverPass({ limit: 25, ignoreBackoff: true, retryFailed: true });
    total.sent += pass.sent;
    total.failed += pass.failed;
    if (pass.claimed === pass.held || pass.failed > 0) break;
  }
  total.pruned = await pruneOutbox();
  return total;
}

const nowOf = (payload: RoundPayload) => (payload.date ? startOfBusinessDay(payload.date)! : new Date());

/**
 * Runs `work`, then, in a round, sends the round's next job: after a success, and after the last
 * attempt of a failure too (as the old round billed after a failed generator: one bad plan must
 * not keep the month's invoices back). Not after an attempt that is retried: its retry chains.
 */
async function thenNext<T>(next: string, payload: RoundPayload, context: JobContext, work: () => Promise<T>) {
  let done = false;
  try {
    const result = await work();
    done = true;
    // What the run did: pg-boss keeps it as the job's output (a script prints it: job-now.server.ts).
    return result;
  } finally {
    if (payload.round && (done || context.lastAttempt)) {
      await context.send(next, payload).catch((error: unknown) => {
        log.warn("jobs.chain_failed", { job: next, ...errorFields(error) });
      });
    }
  }
}

export type JobRuns = {
  generate?: typeof generatePlanVisits;
  bill?: typeof runBilling;
  collect?: typeof runPaymentCollection;
  /** Whether this process sends messages (SMTP or Twilio configured): else no drain worker. */
  outbox?: boolean;
};

/** The jobs, with the workflows they run (tests pass theirs, on their fixtures). */
export function buildJobs(runs: JobRuns = {}): JobDefinition[] {
  const jobs: JobDefinition[] = [
    {
      name: JOB_NAMES.visits,
      payload: roundPayload,
      // Hourly, as the old loop; the rest of the round follows it.
      cron: "0 * * * *",
      cronPayload: { round: true },
      stately: true,
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 60,
      // 100k plans took 109 s; an hour is far past any real run, and a run pg-boss expires
      // while it still goes on keeps the generator's lock, so the retry skips (decision 114).
      expireInSeconds: 60 * 60,
      run: (payload: RoundPayload, context) =>
        thenNext(JOB_NAMES.billing, payload, context, () =>
          runPlanVisitGeneration({ now: nowOf(payload), signal: context.signal, generate: runs.generate }),
        ),
    },
    {
      name: JOB_NAMES.billing,
      payload: roundPayload,
      stately: true,
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireInSeconds: 60 * 60,
      run: (payload: RoundPayload, context) =>
        thenNext(JOB_NAMES.collect, payload, context, async () => {
          const result = await runBillingJob({ now: nowOf(payload), signal: context.signal, bill: runs.bill });
          // The invoice e-mails it queued go out now, not at the drain's next minute.
          if (runs.outbox) await context.send(JOB_NAMES.outboxDrain, {});
          return result;
        }),
    },
    {
      name: JOB_NAMES.collect,
      payload: roundPayload,
      stately: true,
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 120,
      // The collection's own budget is 15 minutes (decision 112).
      expireInSeconds: 30 * 60,
      run: async (payload: RoundPayload, context) => {
        const result = await runPaymentCollectionJob({
          now: nowOf(payload),
          signal: context.signal,
          collect: runs.collect,
        });
        if (runs.outbox) await context.send(JOB_NAMES.outboxDrain, {});
        return result;
      },
    },
    {
      name: JOB_NAMES.purges,
      payload: nothing,
      cron: "50 * * * *",
      stately: true,
      concurrency: 1,
      retryLimit: 2,
      retryDelaySeconds: 60,
      expireInSeconds: 10 * 60,
      run: () => runPurgeJobs(),
    },
    {
      // The Reports tab's monthly aggregates (decision 130), each night after the day's round.
      name: JOB_NAMES.reports,
      payload: nothing,
      cron: "30 2 * * *",
      stately: true,
      concurrency: 1,
      retryLimit: 2,
      retryDelaySeconds: 300,
      // 100k customers took seconds (bench/reports.ts); far past any real run.
      expireInSeconds: 30 * 60,
      run: async (_payload: unknown, context) => refreshReports(await getDb(), { signal: context.signal }),
    },
    {
      name: JOB_NAMES.routes,
      payload: roundPayload,
      // Each morning before the field's day, after the night's visits are made: today and the
      // next 7 days split into one route per technician (decision 126). Each split is idempotent.
      cron: "20 4 * * *",
      stately: true,
      concurrency: 1,
      retryLimit: 2,
      retryDelaySeconds: 120,
      expireInSeconds: 30 * 60,
      run: (payload: RoundPayload) => runRouteSplit({ now: nowOf(payload) }),
    },
    {
      name: JOB_NAMES.outboxPrune,
      payload: nothing,
      // Whatever is configured: the outbox stays bounded in every mode (decision 109).
      cron: "40 * * * *",
      stately: true,
      concurrency: 1,
      retryLimit: 2,
      retryDelaySeconds: 300,
      expireInSeconds: 30 * 60,
      run: () => pruneOutbox(),
    },
  ];
  if (runs.outbox) {
    jobs.push({
      name: JOB_NAMES.outboxDrain,
      payload: drainPayload,
      // Every minute (cron's finest) for retries after their backoff; a change that queues a
      // message sends this job at once (wakeOutboxWorker).
      cron: "* * * * *",
      quiet: true,
      stately: true,
      concurrency: 1,
      retryLimit: 2,
      retryDelaySeconds: 30,
      expireInSeconds: 15 * 60,
      run: (payload: DrainPayload) => (payload.now ? drainNow() : drainDue()),
    });
  }
  return jobs;
}
