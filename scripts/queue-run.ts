// The job scripts run their job on the queue (issue 35 item 5, docs/decisions/114): the job is sent
// to pg-boss and worked by this process or by a server on the same database, whichever takes it
// first, and the script prints what it did and exits 0, or prints its error and exits 1.
import { runJobNow, type RunJobNowOptions } from "../app/features/jobs/job-now.server";
import { businessToday } from "../app/features/visits/visit-dates";
import type { CommandOptions, JobClock } from "./job-clock";

/** Exit code of a job that failed (its error is printed and kept in pg-boss's table). */
export const JOB_FAILED_EXIT = 1;

export type ScriptJob = CommandOptions &
  Pick<RunJobNowOptions, "jobs" | "singletonKey"> & {
    /**
     * The day it acts as: today is the real now (no `date`, as the schedules send); another day is
     * `{ date }`, and its own slot of the stately policy (never folded into today's round).
     */
    clock?: JobClock;
    /** The job's own payload, beside the day. */
    payload?: object;
  };

/** Runs `name` on the queue and returns its output, or null after printing why it failed. */
export async function runJobForScript<T>(name: string, job: ScriptJob = {}): Promise<{ output: T } | null> {
  const day = job.clock?.day;
  const date = day && day !== businessToday(new Date()) ? day : undefined;
  const outcome = await runJobNow(
    name,
    { ...job.payload, ...(date ? { date } : {}) },
    { jobs: job.jobs, singletonKey: date ?? job.singletonKey },
  );
  if (outcome.alreadyQueued) (job.log ?? console.log)(`A ${name} job was already queued: it ran, not a second one.`);
  if (outcome.state !== "completed") {
    (job.error ?? console.error)(`The ${name} job (${outcome.jobId}) ${outcome.state}: ${outcome.message}`);
    return null;
  }
  return { output: outcome.output as T };
}
