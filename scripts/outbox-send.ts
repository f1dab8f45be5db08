// `npm run outbox:send`: sends every e-mail of the outbox that is waiting now, whatever its
// backoff (after an SMTP outage), and tries once more each one given up on ('failed'). The app's
// outbox:drain job does the waiting ones on its own every minute and whenever a change queues one
// (docs/decisions/114); this is for an operator who does not want to wait. Then deletes the
// finished ones (sent, skipped, failed) older than OUTBOX_KEEP_SENT_DAYS (the app's outbox:prune
// job does that hourly too). Needs SMTP_URL. With PGlite, stop the app first.
import { closeDatabase } from "../app/utils/db.server";
import { getEnv } from "../app/utils/env.server";
import { closeMailTransport } from "../app/utils/mailer.server";
import { deliverPass, pruneOutbox } from "../app/features/outbox/outbox.server";

if (!getEnv().SMTP_URL) {
  console.error("SMTP_URL is not set: outbox rows are kept as skipped.");
  process.exit(2);
}

const total = { sent: 0, failed: 0 };
try {
  // Stops at the first failing batch rather than hammer a server that is down.
  for (;;) {
    const result = await deliverPass({ limit: 25, ignoreBackoff: true, retryFailed: true });
    total.sent += result.sent;
    total.failed += result.failed;
    // A pass of dropped messages (expired, opted out) is not the end, but one of texts held
    // until the morning is: they would be claimed again and again.
    if (result.claimed === result.held || result.failed > 0) break;
  }
  console.log(`Outbox e-mails sent: ${total.sent}, failed: ${total.failed}.`);
  const pruned = await pruneOutbox();
  if (pruned > 0)
    console.log(`Finished messages older than ${getEnv().OUTBOX_KEEP_SENT_DAYS} days deleted: ${pruned}.`);
  if (total.failed > 0) process.exitCode = 1;
} finally {
  // The pool's connections would keep the process alive until they time out.
  closeMailTransport();
  await closeDatabase();
}
