// `npm run billing:run`: makes this month's invoices from the customer plans now (docs/decisions/101),
// as the server does at start and every hour. Prints the counts. Another run going on (a server,
// another machine) holds the lock: this one then does nothing and says so. With PGlite, stop the
// app first.
import { closeDatabase } from "../app/utils/db.server";
import { runBilling } from "../app/features/billing/billing-run.server";

try {
  const started = Date.now();
  const result = await runBilling({ now: new Date() });
  if (!result.ran) {
    console.log("Another billing run is going on (it holds the lock): nothing done.");
  } else {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Month ${result.period.slice(0, 7)}: plans ${result.plans}, invoices made ${result.invoices}, plans without a price ${result.unpriced} (${seconds} s, longest transaction ${Math.round(result.longestTransactionMs)} ms).`,
    );
  }
} finally {
  await closeDatabase();
}
