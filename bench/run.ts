// `npm run bench`: runs every other bench/*.ts in its own Node process (with the garbage
// collector exposed, so figures are taken on live memory) and prints what each reports.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = readdirSync(dir)
  // load.ts is a minute long and has its own command: npm run load.
  .filter((f) => f.endsWith(".ts") && f !== "run.ts" && f !== "load.ts" && !f.startsWith("_"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== bench/${file}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(dir, file)], {
    stdio: "inherit",
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) console.log(`=== bench/${file}: done in ${seconds} s`);
  else {
    failed++;
    console.log(`=== bench/${file}: FAILED (exit ${result.status ?? result.signal}) after ${seconds} s`);
  }
}
process.exit(failed ? 1 : 0);
