// The clock of the job scripts (`billing:run`, `billing:collect`, `visits:generate`; issue 34
// item 9, docs/decisions/112): `--date YYYY-MM-DD` names the business day the job acts as, so an
// owner can catch up a day the server missed and a test can walk through months. Also the
// scripts' shared start: a command is a function (argv in, exit code out) that tests call in
// process, and the built script runs it only when it is the program itself.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { businessToday, startOfBusinessDay } from "../app/features/visits/visit-dates";
import { BUSINESS_TIME_ZONE } from "../app/utils/business-time";
import { closeDatabase } from "../app/utils/db.server";

/** The day a job acts as, and the instant it passes to the job as `now`. */
export type JobClock = { day: string; now: Date; given: boolean };

/** Where a command writes: the console, or a test's lines. */
export type CommandOutput = { log: (line: string) => void; error: (line: string) => void };
export type CommandOptions = Partial<CommandOutput> & { /** The real clock (tests). */ now?: Date };
export type Command = (argv: readonly string[], options?: CommandOptions) => Promise<number>;

/** Exit code of a bad command line: nothing was done (the database was not even opened). */
export const USAGE_EXIT = 2;

const USAGE = "Use --date YYYY-MM-DD (a day in the business's time zone, from 2000-01-01 to 2100-12-31).";

/**
 * Reads `--date YYYY-MM-DD` (or `--date=YYYY-MM-DD`) from the arguments; no argument is today.
 * Today, named or not, runs as of the real now (what the hourly job does); another day runs as of
 * its first instant, 00:00 in the business's time zone, the moment the server's first run that
 * day would have made (so its visits of that day are made and its charges due that day are
 * due). Anything else, or an impossible day (2027-02-30), is an error with a message.
 */
export function parseJobClock(
  argv: readonly string[],
  realNow: Date = new Date(),
): { ok: true; clock: JobClock } | { ok: false; message: string } {
  let day: string | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    let value: string | undefined;
    if (arg === "--date") {
      value = argv[i + 1];
      i += 1;
      if (value === undefined || value.startsWith("--")) return { ok: false, message: `--date needs a day. ${USAGE}` };
    } else if (arg.startsWith("--date=")) {
      value = arg.slice("--date=".length);
    } else {
      return { ok: false, message: `Unknown argument "${arg}". ${USAGE}` };
    }
    if (day !== null) return { ok: false, message: `--date is given twice. ${USAGE}` };
    if (startOfBusinessDay(value) === null) {
      return { ok: false, message: `--date: "${value}" is not a day. ${USAGE}` };
    }
    day = value;
  }
  const today = businessToday(realNow);
  if (day === null || day === today) return { ok: true, clock: { day: today, now: realNow, given: day !== null } };
  return { ok: true, clock: { day, now: startOfBusinessDay(day)!, given: true } };
}

/** The clock from the arguments, or null after printing why not (the command then exits USAGE_EXIT). */
export function jobClockOrExplain(argv: readonly string[], options: CommandOptions): JobClock | null {
  const parsed = parseJobClock(argv, options.now);
  if (!parsed.ok) {
    (options.error ?? console.error)(parsed.message);
    return null;
  }
  if (parsed.clock.given) {
    (options.log ?? console.log)(`As of business day ${parsed.clock.day} (${BUSINESS_TIME_ZONE}).`);
  }
  return parsed.clock;
}

/**
 * Runs the command with the process's arguments when `moduleUrl` is the program node started
 * (`node build/scripts/billing-run.js`), then closes the database; imported (a test), it does
 * nothing.
 */
export async function runAsScript(moduleUrl: string, command: Command) {
  const program = process.argv[1];
  if (!program) return;
  let isMain = false;
  try {
    isMain = realpathSync(program) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    isMain = false;
  }
  if (!isMain) return;
  try {
    process.exitCode = await command(process.argv.slice(2));
  } finally {
    await closeDatabase();
  }
}
