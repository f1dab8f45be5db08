// Renders pages with one or two Remix builds in this process, as the production server would
// (NODE_ENV=production: React's production build), without HTTP: loaders, React and the HTML.
// Run by bench/scale.ts in a process of its own, because the bench itself runs with
// NODE_ENV=test and React picks its build once per process.
// Input (argv[2], JSON): { builds: [path...], pages: [[label, pathname]...], cookie, calls,
// htmlDir?, interleave? }: with htmlDir, each build's HTML of each page is saved there as
// render-<page>-<build index>.html (the same data through both builds, to compare them). A page
// may also be [label, [[pathname, cookie]...]]: each call renders the next of these (several
// users in turn). interleave: true renders the pages in turns (call i of every page, then call
// i + 1), so that pages compared by ratio see the same machine.
// The database is the environment's DATABASE_URL. Output: one JSON line, per page and build
// the median and 95th percentile wall time of a render, the median CPU time and the HTML's size.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/node";

const { builds, pages, cookie, calls, htmlDir, interleave } = JSON.parse(process.argv[2]);

const handlers = [];
for (const buildPath of builds) {
  const build = await import(pathToFileURL(buildPath).href);
  handlers.push(createRequestHandler(build, "production"));
}

async function render(handle, url, userCookie = cookie) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await handle(new Request(url, { headers: { Cookie: userCookie, Accept: "text/html" } }), {
    cspNonce: "bench",
    clientAddress: "127.0.0.1",
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status} in process`);
  // CPU time of this process (the database's work is another process's): less noisy than the
  // wall clock on a shared machine.
  return { ms, cpuMs: (used.user + used.system) / 1000, bytes: Buffer.byteLength(text), text };
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(0.95 * xs.length))];
const entries = pages.map(([label, where]) => ({
  label,
  targets: typeof where === "string" ? [[where, cookie]] : where,
  times: handlers.map(() => ({ ms: [], cpu: [], bytes: 0 })),
}));

/**
 * Call `i` of a page: its i-th target through every build, in the opposite order every other
 * call: a render pays for part of the garbage the render before it left, and no build should
 * always follow the same one.
 */
async function call(entry, i, record) {
  const [pathname, userCookie] = entry.targets[i % entry.targets.length];
  const order = [...handlers.entries()];
  if (i % 2 === 1) order.reverse();
  for (const [b, handle] of order) {
    const r = await render(handle, `http://localhost${pathname}`, userCookie);
    if (!record) continue;
    entry.times[b].ms.push(r.ms);
    entry.times[b].cpu.push(r.cpuMs);
    entry.times[b].bytes = r.bytes;
  }
}

for (const entry of entries) {
  if (htmlDir) {
    mkdirSync(htmlDir, { recursive: true });
    const name = entry.label.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
    const [pathname, userCookie] = entry.targets[0];
    for (const [b, handle] of handlers.entries()) {
      const { text } = await render(handle, `http://localhost${pathname}`, userCookie);
      writeFileSync(path.join(htmlDir, `render-${name}-${b}.html`), text);
    }
  }
  for (let i = 0; i < 20; i++) await call(entry, i, false);
}
// In turns, so that every build (and with interleave, every page) sees the same machine.
if (interleave) {
  for (let i = 0; i < calls; i++) for (const entry of entries) await call(entry, i, true);
} else {
  for (const entry of entries) for (let i = 0; i < calls; i++) await call(entry, i, true);
}
const results = entries.map(({ label, times }) => ({
  label,
  builds: times.map((t) => ({ p50: median(t.ms), p95: p95(t.ms), cpu50: median(t.cpu), bytes: t.bytes })),
}));
console.log(JSON.stringify(results));
process.exit(0);
