// `npm run visits:generate [-- --date YYYY-MM-DD]`: makes every customer plan's visits for the plan
// horizon, and moves the ones on a newly closed day (docs/decisions/091), as the server does at
// start and every hour, as of now or of the business day given (docs/decisions/112). Prints the
// counts. Another generator running (a server, another machine) holds the lock: this one then
// does nothing and says so. A bad --date exits 2 and does nothing. With PGlite, stop the app first.
import { JOB_NAMES } from "../app/features/jobs/jobs.server";
import type { generatePlanVisits } from "../app/features/plans/visit-generator.server";
import { jobClockOrExplain, runAsScript, USAGE_EXIT, type CommandOptions } from "./job-clock";
import { JOB_FAILED_EXIT, runJobForScript } from "./queue-run";

export async function visitsGenerateCommand(argv: readonly string[], options: CommandOptions = {}): Promise<number> {
  const log = options.log ?? console.log;
  const clock = jobClockOrExplain(argv, options);
  if (!clock) return USAGE_EXIT;
  const started = Date.now();
  const job = await runJobForScript<Awaited<ReturnType<typeof generatePlanVisits>>>(JOB_NAMES.visits, {
    ...options,
    clock,
  });
  if (!job) return JOB_FAILED_EXIT;
  const result = job.output;
  if (!result.ran) {
    log("Another generator is running (it holds the lock): nothing done.");
  } else {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(
      `Plans: ${result.plans}, visits made: ${result.inserted}, moved off closed days: ${result.moved}, cancelled (no open day): ${result.cancelled} (${seconds} s).`,
    );
  }
  return 0;
}

await runAsScript(import.meta.url, visitsGenerateCommand);
