// Server-rendering speed and memory of the public pages, on the production build.
// Run: npm run build && npm run bench   (or: npx tsx bench/pages.ts)
// BENCH_DATABASE_URL=postgres://... measures with PostgreSQL (as on Fly) instead of PGlite.
// Starts `node server.js` on a free port with a fresh PGlite folder, warms up, then sends a
// bounded number of requests at a fixed concurrency to each page and prints the figures.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

const PAGES = ["/", "/services", "/services/weekly", "/about", "/contact", "/privacy-policy", "/does-not-exist"];
const REQUESTS_PER_PAGE = Number(process.env.BENCH_REQUESTS || 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-pages-"));
  const server = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      ALLOW_EMBEDDED_IN_PRODUCTION: "true",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-1234",
      LOG_LEVEL: "error",
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/resources/healthcheck`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const rssStart = rssOf(server.pid!);
    console.log(
      `pages bench: ${REQUESTS_PER_PAGE} requests per page, concurrency ${CONCURRENCY}, server RSS at start ${rssStart.toFixed(0)} MiB`,
    );
    console.log(
      "page".padEnd(22),
      "status",
      "req/s".padStart(8),
      "p50 ms".padStart(8),
      "p95 ms".padStart(8),
      "KiB".padStart(7),
    );
    for (const page of PAGES) {
      for (let i = 0; i < 10; i++) await (await fetch(base + page)).arrayBuffer(); // warm-up
      const times: number[] = [];
      let status = 0;
      let bytes = 0;
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < REQUESTS_PER_PAGE) {
            next++;
            const t = performance.now();
            const res = await fetch(base + page, { headers: { "Accept-Encoding": "identity" } });
            bytes = (await res.arrayBuffer()).byteLength;
            status = res.status;
            times.push(performance.now() - t);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      times.sort((a, b) => a - b);
      console.log(
        page.padEnd(22),
        String(status).padStart(6),
        (times.length / seconds).toFixed(0).padStart(8),
        percentile(times, 50).toFixed(1).padStart(8),
        percentile(times, 95).toFixed(1).padStart(8),
        (bytes / 1024).toFixed(1).padStart(7),
      );
    }
    console.log(`server RSS after: ${rssOf(server.pid!).toFixed(0)} MiB`);
  } finally {
    server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
