// `npm run billing:collect`: charges the open invoices due and the retries due, and pauses the
// plans of invoices unpaid past the grace days, now (docs/decisions/104), as the server does after
// each billing run. Prints the counts. Another collection going on holds the lock: this one then
// does nothing and says so. With PGlite, stop the app first.
import { closeDatabase } from "../app/utils/db.server";
import { runPaymentCollection } from "../app/features/billing/payment-recovery.server";

try {
  const result = await runPaymentCollection({ now: new Date() });
  if (!result.ran) {
    console.log("Another payment collection is going on (it holds the lock): nothing done.");
  } else {
    console.log(
      `Charged ${result.charged} (paid ${result.succeeded}, failed ${result.failed}); plans paused for payment ${result.paused}.`,
    );
  }
} finally {
  await closeDatabase();
}
