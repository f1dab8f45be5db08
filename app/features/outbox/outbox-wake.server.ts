import { enqueueJob } from "~/utils/job-queue.server";

/** The queue's job that drains the outbox (app/features/jobs/jobs.server.ts, decision 114). */
export const OUTBOX_DRAIN_JOB = "outbox:drain";

/**
 * Asks for a drain now rather than at the job's next minute: sends the drain job on this
 * process's queue. Call after the transaction that enqueued has committed (the row is what the
 * job reads); it never waits for the send and never fails the request. Without a queue (tests,
 * scripts) it does nothing.
 */
export function wakeOutboxWorker() {
  enqueueJob(OUTBOX_DRAIN_JOB);
}

/** How long a drain sent from inside a change waits: the change's transaction commits meanwhile. */
const AFTER_COMMIT_SECONDS = 2;

/**
 * A drain in AFTER_COMMIT_SECONDS, for a message queued inside a transaction that may not have
 * committed yet (enqueueEmail, enqueueText): every message goes out within seconds, as with the
 * old 15 s worker, not at the drain's next minute. A transaction still open by then leaves its
 * row to the minute's drain.
 */
export function wakeOutboxWorkerAfterCommit() {
  enqueueJob(OUTBOX_DRAIN_JOB, {}, { startAfter: AFTER_COMMIT_SECONDS });
}
