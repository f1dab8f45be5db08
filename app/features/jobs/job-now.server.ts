import { sql } from "kysely";
import { buildJobs } from "./jobs.server";
import { isMailConfigured } from "~/utils/mailer.server";
import { isTextConfigured } from "~/utils/texts.server";
import { getDb, type Db } from "~/utils/db.server";
import { startJobQueue, type JobDefinition } from "~/utils/job-queue.server";

/**
 * A job run now, on the queue, by a script (`npm run billing:run` and the others: issue 35 item 5,
 * docs/decisions/114). The job is sent to pg-boss as the schedules send it, and this process works
 * it beside any server on the database: whichever worker takes it first runs it, once (SKIP
 * LOCKED), with the payload checked as every job's is, and the script waits for its end and reads
 * what it returned. A job of that name already queued (the stately policy keeps one queued at
 * most) is the one that runs: the script waits for it rather than make a second. A script's own
 * job is not retried (`retryLimit` 0): a failure is reported at once, as a shell expects, rather
 * than after minutes of backoff; it stays in pg-boss's table as failed, with its error.
 */

export type JobOutcome =
  | { state: "completed"; jobId: string; output: unknown; alreadyQueued: boolean }
  | { state: "failed" | "cancelled"; jobId: string; message: string; alreadyQueued: boolean };

export type RunJobNowOptions = {
  db?: Db;
  /** The job definitions (a test passes its own); by default the app's. */
  jobs?: readonly JobDefinition[];
  /** How often the script's worker and its wait look at the queue. */
  pollSeconds?: number;
  /** The stately policy's key: one queued and one running per key (a `--date` run's day). */
  singletonKey?: string;
};

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

export async function runJobNow(name: string, payload: object, options: RunJobNowOptions = {}): Promise<JobOutcome> {
  const db = options.db ?? (await getDb());
  const job = (options.jobs ?? buildJobs({ outbox: isMailConfigured() || isTextConfigured() })).find(
    (candidate) => candidate.name === name,
  );
  if (!job) throw new Error(`No job named ${name}`);
  const pollSeconds = options.pollSeconds ?? 0.5;
  // A business day of its own (`--date`) is its own slot of the stately policy: it never folds
  // into a round queued for today, which would do another day's work.
  const singletonKey = options.singletonKey;
  const queued: { sent: string | null; jobId: string | null } = { sent: null, jobId: null };
  // Only this job's worker, no schedule and no maintenance: the servers keep those. The job is
  // sent before the worker starts, so that a job of that name already queued is found, not run
  // beside this one.
  const queue = await startJobQueue(db, [{ ...job, cron: undefined }], {
    schedule: false,
    supervise: false,
    pollingIntervalSeconds: pollSeconds,
    beforeWork: async (send) => {
      queued.sent = await send(name, payload, { retryLimit: 0, ...(singletonKey ? { singletonKey } : {}) });
      queued.jobId = queued.sent ?? (await waitingJobId(db, name, singletonKey ?? null));
    },
  });
  try {
    const { jobId } = queued;
    if (!jobId) throw new Error(`The ${name} job could not be queued`);
    // Long enough for a run behind the one going on, and every retry of a job found queued.
    const deadline = Date.now() + (job.expireInSeconds * (job.retryLimit + 2) + 60) * 1000;
    for (;;) {
      const found = await queue.boss.getJobById(name, jobId, { includeArchive: true });
      if (found && TERMINAL.has(found.state)) {
        const alreadyQueued = queued.sent === null;
        if (found.state === "completed") return { state: "completed", jobId, output: found.output, alreadyQueued };
        return { state: found.state as "failed" | "cancelled", jobId, message: failureOf(found.output), alreadyQueued };
      }
      if (Date.now() > deadline)
        throw new Error(`The ${name} job ${jobId} did not end in time; it goes on in the queue`);
      await new Promise((resolve) => setTimeout(resolve, pollSeconds * 1000));
    }
  } finally {
    await queue.stop();
  }
}

/** The job of `name` queued (or just taken) when the stately policy dropped this send. */
async function waitingJobId(db: Db, name: string, singletonKey: string | null): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    select id from pgboss.job
    where name = ${name} and state in ('created', 'retry', 'active')
      and coalesce(singleton_key, '') = ${singletonKey ?? ""}
    order by case state when 'created' then 0 when 'retry' then 1 else 2 end, created_on
    limit 1
  `.execute(db);
  return rows[0]?.id ?? null;
}

/** pg-boss keeps a failed job's error as its output (`{ name, message, stack }`). */
function failureOf(output: unknown): string {
  if (output && typeof output === "object" && "message" in output && typeof output.message === "string")
    return output.message;
  return "the job failed";
}
