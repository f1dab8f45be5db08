import { afterEach, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { useTestSmtp } from "../helpers/smtp-server";
import { buildJobs, JOB_NAMES } from "~/features/jobs/jobs.server";
import { enqueueEmail, wakeOutboxWorker } from "~/features/outbox/outbox.server";
import { startJobQueue, type JobQueue } from "~/utils/job-queue.server";

/**
 * The outbox on the queue (docs/decisions/114): an e-mail queued inside a change's transaction
 * goes out within seconds through the outbox:drain job, once, with no timer of the outbox's own.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Swift Scoop <hello@example.com>");
let queue: JobQueue | undefined;
afterEach(async () => {
  await queue?.stop();
  queue = undefined;
});

async function until(done: () => boolean, ms = 15_000) {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error("Timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("an e-mail queued in a transaction is sent by the drain job after the commit, once", async () => {
  const drain = buildJobs({ outbox: true }).filter((job) => job.name === JOB_NAMES.outboxDrain);
  queue = await startJobQueue(db(), drain, { pollingIntervalSeconds: 0.5, schedule: false });
  const started = Date.now();
  await db()
    .transaction()
    .execute(async (trx) => {
      await enqueueEmail(trx, { kind: "other", to: "pat@example.com", subject: "Queued in a change", text: "Hi" });
      // The change goes on a little after its e-mail is queued; the drain reads it committed.
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
  await until(() => smtp.current.messages.length > 0);
  expect(Date.now() - started).toBeLessThan(10_000);
  // A wake-up after the commit finds nothing more to send.
  wakeOutboxWorker();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(smtp.current.messages.map((message) => message.subject)).toEqual(["Queued in a change"]);
  const [row] = await db().selectFrom("outbox").select(["status", "attempts"]).execute();
  expect(row).toMatchObject({ status: "sent", attempts: 1 });
}, 30_000);
