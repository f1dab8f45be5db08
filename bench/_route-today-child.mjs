// Times pages through the production build's Remix request handler in a production process
// (React's production build), without HTTP: run by bench/route-order.ts. Pages in turns, so
// the machine's noise falls on each alike. Input (argv[2], JSON): { build, pages: [[label,
// pathname]...], cookie, calls, htmlFile? }. Output: one JSON line, per page p50, p95 and bytes.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/node";

const { build, pages, cookie, calls, htmlFile } = JSON.parse(process.argv[2]);
const handle = createRequestHandler(await import(pathToFileURL(build).href), "production");

async function render(pathname) {
  const started = performance.now();
  const response = await handle(
    new Request(`http://localhost${pathname}`, { headers: { Cookie: cookie, Accept: "text/html" } }),
    { cspNonce: "bench", clientAddress: "127.0.0.1" },
  );
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${pathname} answered ${response.status} in process`);
  return { ms: performance.now() - started, text };
}

const times = pages.map(() => []);
const bytes = [];
for (const [index, [, pathname]] of pages.entries()) {
  const first = await render(pathname);
  bytes[index] = Buffer.byteLength(first.text);
  if (index === 0 && htmlFile) writeFileSync(htmlFile, first.text);
}
for (let i = 0; i < 20; i++) for (const [, pathname] of pages) await render(pathname);
for (let i = 0; i < calls; i++) {
  for (const [index, [, pathname]] of pages.entries()) times[index].push((await render(pathname)).ms);
}
const at = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
console.log(
  JSON.stringify(
    pages.map(([label], index) => {
      const sorted = times[index].sort((a, b) => a - b);
      return { label, p50: at(sorted, 50), p95: at(sorted, 95), bytes: bytes[index] };
    }),
  ),
);
process.exit(0);
