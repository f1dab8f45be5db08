import { listenForContentChanges, stopListening } from "./content/content-events.server";
import { buildJobs, JOB_NAMES } from "./features/jobs/jobs.server";
import { BUSINESS_TIME_ZONE } from "./utils/business-time";
import { getDb } from "./utils/db.server";
import { getEnv } from "./utils/env.server";
import { startJobQueue, type JobQueue } from "./utils/job-queue.server";
import { errorFields, log } from "./utils/logger.server";
import { isMailConfigured } from "./utils/mailer.server";
import { isTextConfigured } from "./utils/texts.server";

/**
 * What a server process runs besides answering requests, started by one explicit call from
 * server.js (`serverHooks.startBackgroundWork`, decision 014), never by importing the build.
 */

const START_RETRY_MS = 30_000;

export type BackgroundWork = { stop(): Promise<void> };
let started: BackgroundWork | undefined;

/**
 * Starts this process's background work once: migrations (so the first visitor does not wait
 * for them), then the job queue (pg-boss, docs/decisions/114) with every job and its schedule:
 * the hourly round (the plan visit generator, then the billing run, then the payment
 * collection), the purges, the outbox's prune and, where SMTP or Twilio is configured, its drain.
 * Every machine runs one queue; pg-boss hands each job to one of them and sends each schedule
 * once. The round also runs SCHEDULED_WORK_DELAY_SECONDS after start (two minutes by default:
 * the first requests after a deploy have the machine), as the old loop did. Also the LISTEN
 * connection that hears content publishes from every machine (PostgreSQL only). Timers are
 * unref'd: none keeps a process alive.
 */
export function startBackgroundWork(): BackgroundWork {
  if (started) return started;
  let stopped = false;
  let current: JobQueue | undefined;
  let starting: Promise<void> | undefined;
  let firstRound: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  const startQueue = async () => {
    try {
      const db = await getDb();
      if (stopped) return;
      const jobs = buildJobs({ outbox: isMailConfigured() || isTextConfigured() });
      const running = await startJobQueue(db, jobs, { timeZone: BUSINESS_TIME_ZONE });
      if (stopped) return void (await running.stop());
      current = running;
      log.info("jobs.started", { jobs: jobs.map((job) => job.name) });
      firstRound = setTimeout(() => {
        running.send(JOB_NAMES.visits, { round: true }).catch((error: unknown) => {
          log.warn("jobs.send_failed", { job: JOB_NAMES.visits, ...errorFields(error) });
        });
      }, getEnv().SCHEDULED_WORK_DELAY_SECONDS * 1000).unref();
    } catch (error) {
      // A database that is not up yet: requests answer 503 meanwhile, and the queue tries again.
      log.error("jobs.start_failed", { retryInSeconds: START_RETRY_MS / 1000, ...errorFields(error) });
      if (!stopped) retry = setTimeout(() => void (starting = startQueue()), START_RETRY_MS).unref();
    }
  };
  starting = startQueue();
  listenForContentChanges();
  const work: BackgroundWork = {
    async stop() {
      stopped = true;
      clearTimeout(firstRound);
      clearTimeout(retry);
      await starting;
      // A run in progress stops after its current batch (what it made stays made).
      await current?.stop();
      await stopListening();
      started = undefined;
    },
  };
  started = work;
  return work;
}
