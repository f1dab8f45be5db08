// `npm run billing:run [-- --date YYYY-MM-DD]`: makes the month's invoices from the customer plans
// (docs/decisions/101), as the server does at start and every hour, as of now or of the business
// day given (docs/decisions/112: catching up a day the server missed). Prints the counts. Another
// run going on (a server, another machine) holds the lock: this one then does nothing and says
// so. A bad --date exits 2 and does nothing. With PGlite, stop the app first.
import type { runBilling } from "../app/features/billing/billing-run.server";
import { JOB_NAMES } from "../app/features/jobs/jobs.server";
import { jobClockOrExplain, runAsScript, USAGE_EXIT, type CommandOptions } from "./job-clock";
import { JOB_FAILED_EXIT, runJobForScript } from "./queue-run";

export async function billingRunCommand(argv: readonly string[], options: CommandOptions = {}): Promise<number> {
  const log = options.log ?? console.log;
  const clock = jobClockOrExplain(argv, options);
  if (!clock) return USAGE_EXIT;
  const started = Date.now();
  const job = await runJobForScript<Awaited<ReturnType<typeof runBilling>>>(JOB_NAMES.billing, { ...options, clock });
  if (!job) return JOB_FAILED_EXIT;
  const result = job.output;
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
