// `npm run visits:generate`: makes every customer plan's visits for the plan horizon now, and
// moves the ones on a newly closed day (docs/decisions/091), as the server does at start and every
// hour. Prints the counts. Another generator running (a server, another machine) holds the lock:
// this one then does nothing and says so. With PGlite, stop the app first.
import { closeDatabase } from "../app/utils/db.server";
import { generatePlanVisits } from "../app/features/plans/visit-generator.server";

try {
  const started = Date.now();
  const result = await generatePlanVisits({ now: new Date() });
  if (!result.ran) {
    console.log("Another generator is running (it holds the lock): nothing done.");
  } else {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Plans: ${result.plans}, visits made: ${result.inserted}, moved off closed days: ${result.moved}, cancelled (no open day): ${result.cancelled} (${seconds} s).`,
    );
  }
} finally {
  await closeDatabase();
}
