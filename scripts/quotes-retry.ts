// `npm run quotes:retry`: sends every quote notification that is still unsent (failed, or left
// pending by a crash) now, whatever its backoff or number of attempts. The app retries on its own
// too; this is for after an SMTP outage, or after raising the attempt limit. Needs SMTP_URL.
// With PGlite (no DATABASE_URL), stop the app first: a PGlite folder cannot be opened twice.
import { closeDatabase } from "../app/utils/db.server";
import { getEnv } from "../app/utils/env.server";
import { retryUnsentQuoteNotifications } from "../app/features/quotes/quote-notifications.server";

if (!getEnv().SMTP_URL) {
  console.error("SMTP_URL is not set: quote requests are not e-mailed (the owner reads them in the inbox).");
  process.exit(2);
}

const total = { sent: 0, failed: 0 };
try {
  // Batches until nothing is left; stops at the first failing batch rather than hammer a server that is down.
  for (;;) {
    const result = await retryUnsentQuoteNotifications({ due: false, limit: 25 });
    total.sent += result.sent;
    total.failed += result.failed;
    if (result.sent + result.failed === 0 || result.failed > 0) break;
  }
  console.log(`Quote notifications sent: ${total.sent}, failed: ${total.failed}.`);
  if (total.failed > 0) process.exitCode = 1;
} finally {
  await closeDatabase();
}
