// `npm run billing:collect [-- --date YYYY-MM-DD]`: charges the open invoices due and the retries
// due, and pauses the plans of invoices unpaid past the grace days (docs/decisions/104), as the
// server does after each billing run, as of now or of the business day given (docs/decisions/112).
// Prints the counts; what one round's time budget left is charged by the next round (run it
// again). Another collection going on holds the lock: this one then does nothing and says so. A
// bad --date exits 2 and does nothing. With PGlite, stop the app first.
import type { runPaymentCollection } from "../app/features/billing/payment-recovery.server";
import { JOB_NAMES } from "../app/features/jobs/jobs.server";
import { jobClockOrExplain, runAsScript, USAGE_EXIT, type CommandOptions } from "./job-clock";
import { JOB_FAILED_EXIT, runJobForScript } from "./queue-run";

export async function billingCollectCommand(argv: readonly string[], options: CommandOptions = {}): Promise<number> {
  const log = options.log ?? console.log;
  const clock = jobClockOrExplain(argv, options);
  if (!clock) return USAGE_EXIT;
  const job = await runJobForScript<Awaited<ReturnType<typeof runPaymentCollection>>>(JOB_NAMES.collect, {
    ...options,
    clock,
  });
  if (!job) return JOB_FAILED_EXIT;
  const result = job.output;
  if (!result.ran) {
    log("Another payment collection is going on (it holds the lock): nothing done.");
  } else {
    log(
      `Charged ${result.charged} (paid ${result.succeeded}, failed ${result.failed}); plans paused for payment ${result.paused}.`,
    );
    if (result.budgetSpent)
      log("The round's time budget is spent: run it again (or wait for the hourly round) for the rest.");
  }
  return 0;
}

await runAsScript(import.meta.url, billingCollectCommand);
