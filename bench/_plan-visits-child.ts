// The generating process of bench/plan-visits.ts: opens the app's database and content as the
// server does, warms up, says "ready" (the parent reads its RSS then), runs the generator once on
// "go" and reports the counts. Started with the Dockerfile's NODE_OPTIONS and MALLOC_ARENA_MAX.
import { readFileSync } from "node:fs";

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;

const { getDb, closeDatabase } = await import("~/utils/db.server");
const { getSiteSettings } = await import("~/content/content.server");
const { generatePlanVisits } = await import("~/features/plans/visit-generator.server");

// What a running server holds already: the pool connected and migrated, the content loaded.
await getDb();
await getSiteSettings();
// The lock and the first queries once (a run told to stop at once reads no plan).
const stopped = new AbortController();
stopped.abort();
await generatePlanVisits({ now: new Date(), signal: stopped.signal });
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 200));

process.send!({ kind: "ready", rss: rssMiB() });
await new Promise<void>((resolve) => process.once("message", () => resolve()));
const started = performance.now();
const result = await generatePlanVisits({ now: new Date() });
const ms = performance.now() - started;
process.send!({ kind: "done", result, ms, rss: rssMiB() });
await closeDatabase();
process.disconnect();
