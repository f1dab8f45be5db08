// Figures of every bench file end up in one table (bench/run.ts prints it): each file appends
// rows here, one JSON object per line, to the file named by BENCH_REPORT.
import { appendFileSync } from "node:fs";

export type Figure = {
  /** What was measured, e.g. "req/s, /services, gzip: app vs bare node:http". */
  figure: string;
  /** The measured value as printed, e.g. "14,510 vs 18,770 = 0.77x". */
  value: string;
  /** The goal as printed, e.g. ">= 0.5x". */
  goal: string;
  /** Whether the goal is met; null when the figure has no pass/fail (information only). */
  ok: boolean | null;
};

export function report(figure: Figure) {
  const mark = figure.ok === null ? "" : figure.ok ? "  ok" : "  MISSED";
  console.log(`  ${figure.figure}: ${figure.value} (goal ${figure.goal})${mark}`);
  if (process.env.BENCH_REPORT) appendFileSync(process.env.BENCH_REPORT, JSON.stringify(figure) + "\n");
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
