// `npm run bench`: runs every other bench/*.ts in its own Node process (with the garbage
// collector exposed, so figures are taken on live memory) and prints what each reports, then
// one table of every figure beside its goal (bench/_report.ts).
// `npm run bench -- pages scale` runs only the files whose names contain one of the words.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Figure } from "./_report";

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = readdirSync(dir)
  // load.ts is a minute long and has its own command: npm run load.
  .filter((f) => f.endsWith(".ts") && f !== "run.ts" && f !== "load.ts" && !f.startsWith("_"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const reportDir = mkdtempSync(path.join(os.tmpdir(), "bench-report-"));
const reportFile = path.join(reportDir, "figures.jsonl");
let failed = 0;
for (const file of files) {
  console.log(`\n=== bench/${file}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(dir, file)], {
    stdio: "inherit",
    env: { ...process.env, NODE_NO_WARNINGS: "1", BENCH_REPORT: reportFile },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) console.log(`=== bench/${file}: done in ${seconds} s`);
  else {
    failed++;
    console.log(`=== bench/${file}: FAILED (exit ${result.status ?? result.signal}) after ${seconds} s`);
  }
}
let figures: Figure[] = [];
try {
  figures = readFileSync(reportFile, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Figure);
} catch {
  // no bench reported figures
}
rmSync(reportDir, { recursive: true, force: true });
if (figures.length > 0) {
  const widths = [
    Math.max(6, ...figures.map((f) => f.figure.length)),
    Math.max(5, ...figures.map((f) => f.value.length)),
    Math.max(4, ...figures.map((f) => f.goal.length)),
  ];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 6)).join(" | ")} |`;
  console.log(
    `\nAll figures (${new Date().toISOString()}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}):\n`,
  );
  console.log(line(["figure", "value", "goal", "met"]));
  console.log(line(widths.map((w) => "-".repeat(w)).concat("---")));
  for (const f of figures) console.log(line([f.figure, f.value, f.goal, f.ok === null ? "" : f.ok ? "yes" : "NO"]));
}
process.exit(failed ? 1 : 0);
