// Renders pages with one or two Remix builds in this process, as the production server would
// (NODE_ENV=production: React's production build), without HTTP: loaders, React and the HTML.
// Run by bench/scale.ts in a process of its own, because the bench itself runs with
// NODE_ENV=test and React picks its build once per process.
// Input (argv[2], JSON): { builds: [path...], pages: [[label, pathname]...], cookie, calls,
// htmlDir? }: with htmlDir, each build's HTML of each page is saved there as
// render-<page>-<build index>.html (the same data through both builds, to compare them).
// The database is the environment's DATABASE_URL. Output: one JSON line, per page and build
// the median wall and CPU time of a render and the HTML's size.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/node";

const { builds, pages, cookie, calls, htmlDir } = JSON.parse(process.argv[2]);

const handlers = [];
for (const buildPath of builds) {
  const build = await import(pathToFileURL(buildPath).href);
  handlers.push(createRequestHandler(build, "production"));
}

async function render(handle, url) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await handle(new Request(url, { headers: { Cookie: cookie, Accept: "text/html" } }), {
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
for (const [label, pathname] of pages) {
  const url = `http://localhost${pathname}`;
  const times = handlers.map(() => ({ ms: [], cpu: [], bytes: 0 }));
  if (htmlDir) {
    mkdirSync(htmlDir, { recursive: true });
    const name = label.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
    for (const [b, handle] of handlers.entries()) {
      writeFileSync(path.join(htmlDir, `render-${name}-${b}.html`), (await render(handle, url)).text);
    }
  }
  for (let i = 0; i < 20; i++) for (const handle of handlers) await render(handle, url);
  // In turns, so that every build sees the same machine.
  for (let i = 0; i < calls; i++) {
    for (const [b, handle] of handlers.entries()) {
      const r = await render(handle, url);
      times[b].ms.push(r.ms);
      times[b].cpu.push(r.cpuMs);
      times[b].bytes = r.bytes;
    }
  }
  results.push({ label, builds: times.map((t) => ({ p50: median(t.ms), cpu50: median(t.cpu), bytes: t.bytes })) });
}
console.log(JSON.stringify(results));
process.exit(0);
