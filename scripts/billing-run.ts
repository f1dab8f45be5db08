// `npm run billing:run [-- --date YYYY-MM-DD]`: makes the month's invoices from the customer plans
// (docs/decisions/101), as the server does at start and every hour, as of now or of the business
// day given (docs/decisions/112: catching up a day the server missed). Prints the counts. Another
// run going on (a server, another machine) holds the lock: this one then does nothing and says
// so. A bad --date exits 2 and does nothing. With PGlite, stop the app first.
import { runBilling } from "../app/features/billing/billing-run.server";
import { jobClockOrExplain, runAsScript, USAGE_EXIT, type CommandOptions } from "./job-clock";

export async function billingRunCommand(argv: readonly string[], options: CommandOptions = {}): Promise<number> {
  const log = options.log ?? console.log;
  const clock = jobClockOrExplain(argv, options);
  if (!clock) return USAGE_EXIT;
  const started = Date.now();
  const result = await runBilling({ now: clock.now });
  if (!result.ran) {
    log("Another billing run is going on (it holds the lock): nothing done.");
  } else {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(
      `Month ${result.period.slice(0, 7)}: plans ${result.plans}, invoices made ${result.invoices}, plans without a price ${result.unpriced} (${seconds} s, longest transaction ${Math.round(result.longestTransactionMs)} ms).`,
    );
  }
  return 0;
}

await runAsScript(import.meta.url, billingRunCommand);
