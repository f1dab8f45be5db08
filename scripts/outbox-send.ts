// `npm run outbox:send`: sends every e-mail of the outbox that is waiting now, whatever its
// backoff (after an SMTP outage), and tries once more each one given up on ('failed'). The app's
// outbox:drain job does the waiting ones on its own every minute and whenever a change queues one
// (docs/decisions/114); this is for an operator who does not want to wait. Then deletes the
// finished ones (sent, skipped, failed) older than OUTBOX_KEEP_SENT_DAYS (the app's outbox:prune
// job does that hourly too). Needs SMTP_URL. With PGlite, stop the app first.
import { JOB_NAMES } from "../app/features/jobs/jobs.server";
import { closeDatabase } from "../app/utils/db.server";
import { getEnv } from "../app/utils/env.server";
import { closeMailTransport } from "../app/utils/mailer.server";
import { JOB_FAILED_EXIT, runJobForScript } from "./queue-run";

if (!getEnv().SMTP_URL) {
  console.error("SMTP_URL is not set: outbox rows are kept as skipped.");
  process.exit(2);
}

try {
  // The drain job with `now`: what waits out its backoff too, failed ones once more, then the prune.
  // Its own slot of the stately policy: never folded into a plain drain a server has queued.
  const job = await runJobForScript<{ sent: number; failed: number; pruned: number }>(JOB_NAMES.outboxDrain, {
    payload: { now: true },
    singletonKey: "now",
  });
  if (!job) {
    process.exitCode = JOB_FAILED_EXIT;
  } else {
    const total = job.output;
    console.log(`Outbox e-mails sent: ${total.sent}, failed: ${total.failed}.`);
    if (total.pruned > 0)
      console.log(`Finished messages older than ${getEnv().OUTBOX_KEEP_SENT_DAYS} days deleted: ${total.pruned}.`);
    if (total.failed > 0) process.exitCode = 1;
  }
} finally {
  // The pool's connections would keep the process alive until they time out.
  closeMailTransport();
  await closeDatabase();
}
