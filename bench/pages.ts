// The public pages over HTTP, on the production build with PostgreSQL (as on Fly):
//  1. throughput of the app (page cache hits) against a bare node:http server sending the same
//     bytes, run side by side, identity and gzip, with autocannon (bench/_load.ts) on loopback;
//  2. what a browser downloads: JS (gzip) per public page, HTML of /;
//  3. the server's RSS during sustained load on / and on the customer dashboard (no heap cap).
//  4. Lighthouse mobile performance, median of BENCH_LIGHTHOUSE_RUNS (default 3) runs per page,
//     through `npx --yes lighthouse@12.8.2` with Debian chromium (never a dependency of the app;
//     skipped with a message when npx or chromium is unavailable, or with BENCH_LIGHTHOUSE=off).
// Run: npm run build && npm run bench pages
// BENCH_PAGES_PARTS=memory (a comma list of downloads, lighthouse, throughput, memory; all by
// default) runs only those parts, to time one change without the rest.
// BENCH_SECONDS (default 4) per throughput run, BENCH_ROUNDS (default 2), BENCH_LOAD_SECONDS (default 60) per load run.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server on
// which a scratch database is created and dropped.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { findChromium } from "../scripts/find-chromium.js";
import { freePort, imageMemoryEnv, rssMiB, startAppServer } from "../tests/helpers/app-server";
import { runLoad } from "./_load";
import { fmt, report } from "./_report";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SECONDS = Number(process.env.BENCH_SECONDS || 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 2);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS || 60);
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const THROUGHPUT_PAGES = ["/", "/services", "/services/weekly", "/contact"];
const BUDGET_PAGES = [
  "/",
  "/services",
  "/services/weekly",
  "/about",
  "/gallery",
  "/contact",
  "/auth",
  "/privacy-policy",
  "/terms-of-service",
  "/disclaimer",
  "/accessibility",
];
const LIGHTHOUSE_PAGES = ["/", "/services", "/services/weekly", "/contact", "/auth"];
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 3);
const LIGHTHOUSE_GOAL = 99;
const JS_BUDGET_KB = 90;
const HTML_BUDGET_KB = 40;
const RATIO_GOAL = 0.5;
const RSS_GOAL_MIB = 200;
const SIGN_IN_BURST = 30;
const PARTS = new Set((process.env.BENCH_PAGES_PARTS || "downloads,lighthouse,throughput,memory").split(","));

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
/** One request, bytes as sent (no decompression). */
function rawGet(url: string, headers: Record<string, string> = {}, method = "GET", body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: Lighthouse runs block this process (spawnSync) for longer
    // than the server keeps an idle connection, and a reused one would be found closed.
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      if ((await rawGet(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** The production server on `databaseUrl`, with the image's memory settings and nothing set by hand. */
async function startApp(databaseUrl: string) {
  const server = await startAppServer(
    {
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-1234",
      SEED_DEV_DATA: "true",
      LOG_LEVEL: "error",
      ...imageMemoryEnv(),
    },
    { ready: "healthy", stdio: "inherit" },
  );
  return { base: server.url, child: server.child, stop: () => void server.stop() };
}

type LoadRun = { rps: number; p50: number; p95: number; requests: number; errors: number };
/** 16 users on loopback for `seconds`, headers as given (bench/_load.ts). */
async function load(url: string, seconds: number, headers: Record<string, string> = {}): Promise<LoadRun> {
  const { rps, p50, p95, requests, errors } = await runLoad({ url, duration: seconds, headers });
  return { rps, p50, p95, requests, errors };
}

/** Samples a process's RSS every 100 ms while `run` runs; returns run's result and the peak. */
async function withPeakRss<T>(
  pid: number,
  run: () => Promise<T>,
): Promise<{ result: T; peak: number; before: number; after: number }> {
  const before = rssMiB(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  try {
    const result = await run();
    return { result, peak, before, after: rssMiB(pid) };
  } finally {
    clearInterval(timer);
  }
}

/** The JS a browser loads for a page: its module scripts and preloads, and the manifest. */
function scriptsOf(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/(?:src|href)="(\/build\/[^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/build\/[^"]+\.js)"/g)) urls.add(m[1]);
  return [...urls];
}

/** The inline scripts a browser runs (structured data is not code). */
function inlineScriptsOf(html: string): string {
  let code = "";
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc=/i.test(m[1]) || /application\/ld\+json/i.test(m[1])) continue;
    code += m[2];
  }
  return code;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Lighthouse's mobile performance score of one URL (0-100), run through npx so that it is never
 * a dependency of the app. Undefined with the reason when it cannot run here.
 */
function lighthouse(url: string, chromePath: string): { score?: number; fcp?: number; lcp?: number; error?: string } {
  const outDir = mkdtempSync(path.join(os.tmpdir(), "bench-lh-"));
  const out = path.join(outDir, "report.json");
  try {
    const run = spawnSync(
      "npx",
      [
        "--yes",
        "lighthouse@12.8.2",
        url,
        "--only-categories=performance",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox",
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, encoding: "utf8", timeout: 240_000, shell: false },
    );
    if (run.error) return { error: run.error.message };
    if (run.status !== 0 || !existsSync(out))
      return { error: (run.stderr || "").trim().split("\n").slice(-2).join(" ") };
    const lhr = JSON.parse(readFileSync(out, "utf8")) as {
      categories: { performance: { score: number | null } };
      audits: Record<string, { numericValue?: number }>;
    };
    const score = lhr.categories.performance.score;
    if (score === null) return { error: "no score (the run failed)" };
    return {
      score: Math.round(score * 100),
      fcp: lhr.audits["first-contentful-paint"]?.numericValue,
      lcp: lhr.audits["largest-contentful-paint"]?.numericValue,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function signIn(base: string): Promise<string> {
  const body = new URLSearchParams({
    intent: "signin",
    email: "customer@example.com",
    password: "customer-password",
  }).toString();
  const res = await rawGet(
    `${base}/auth`,
    {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: base,
      "Content-Length": String(Buffer.byteLength(body)),
    },
    "POST",
    body,
  );
  const cookie = [res.headers["set-cookie"] ?? []]
    .flat()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("__session"));
  if (!cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

async function main() {
  if (!existsSync(path.join(root, "build/index.js"))) throw new Error("No production build: run `npm run build` first");
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const dbName = `bench_pages_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database "${dbName}"`);
  const dbUrl = new URL(SERVER_URL);
  dbUrl.pathname = `/${dbName}`;
  const bareDir = mkdtempSync(path.join(os.tmpdir(), "bench-bare-"));
  const cleanups: (() => void)[] = [];
  try {
    let app = await startApp(dbUrl.toString());
    cleanups.push(() => app.stop());

    if (PARTS.has("downloads")) {
      // What the browser downloads.
      console.log("Downloads (gzip -9 of each file, as a browser gets them compressed):");
      for (const page of BUDGET_PAGES) {
        const html = (await rawGet(app.base + page)).body.toString("utf8");
        let files = 0;
        for (const script of scriptsOf(html))
          files += gzipSync(readFileSync(path.join(root, "public", script)), { level: 9 }).length;
        // Inline code counts too (the head and slider scripts on a static page, Remix's context on a hydrated one).
        const inlineCode = inlineScriptsOf(html);
        const inline = inlineCode ? gzipSync(inlineCode, { level: 9 }).length : 0;
        const kb = (files + inline) / 1024;
        report({
          figure: `JS shipped (gzip), ${page}`,
          value: `${fmt(kb, 1)} KB (files ${fmt(files / 1024, 1)} + inline ${fmt(inline / 1024, 1)})`,
          goal: `<= ${JS_BUDGET_KB} KB`,
          ok: kb <= JS_BUDGET_KB,
        });
        if (page === "/") {
          const kb = Buffer.byteLength(html) / 1024;
          report({
            figure: "HTML of / (uncompressed)",
            value: `${fmt(kb, 1)} KB (${fmt(gzipSync(html).length / 1024, 1)} KB gzip)`,
            goal: `<= ${HTML_BUDGET_KB} KB`,
            ok: kb <= HTML_BUDGET_KB,
          });
        }
      }
    }

    if (PARTS.has("lighthouse")) {
      // Lighthouse (mobile, its default simulated throttling), against the same server.
      const chromePath = await findChromium();
      if (process.env.BENCH_LIGHTHOUSE === "off") console.log("\nLighthouse: skipped (BENCH_LIGHTHOUSE=off)");
      else if (!chromePath) console.log("\nLighthouse: skipped (no chromium found: apt-get install -y chromium)");
      else if (spawnSync("npx", ["--version"]).error) console.log("\nLighthouse: skipped (npx is not available)");
      else {
        console.log(
          `\nLighthouse 12.8.2, mobile, performance, median of ${LIGHTHOUSE_RUNS} (load average before: ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(" ")}):`,
        );
        for (const page of LIGHTHOUSE_PAGES) {
          for (let i = 0; i < 2; i++) await rawGet(app.base + page); // warm the page cache
          const runs = [];
          for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(lighthouse(app.base + page, chromePath));
          const scores = runs.flatMap((r) => (r.score === undefined ? [] : [r.score]));
          if (scores.length === 0) {
            console.log(`  Lighthouse ${page}: skipped (${runs[0]?.error ?? "no run"})`);
            continue;
          }
          const best = runs.find((r) => r.score === median(scores))!;
          report({
            figure: `Lighthouse mobile performance, ${page}`,
            value: `${median(scores)} (runs ${scores.join(", ")}; FCP ${fmt((best.fcp ?? 0) / 1000, 1)} s, LCP ${fmt((best.lcp ?? 0) / 1000, 1)} s; load ${os.loadavg()[0].toFixed(1)})`,
            goal: `>= ${LIGHTHOUSE_GOAL}`,
            ok: median(scores) >= LIGHTHOUSE_GOAL,
          });
        }
      }
    }

    if (PARTS.has("throughput")) {
      // The same bytes for the bare server: what the app sends an anonymous visitor.
      const routes: Record<string, { index: number; headers: Record<string, Record<string, unknown>> }> = {};
      const sentHeaders = (raw: Raw) =>
        Object.fromEntries(
          Object.entries(raw.headers).filter(
            ([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name),
          ),
        );
      for (const [index, page] of THROUGHPUT_PAGES.entries()) {
        for (let i = 0; i < 3; i++) await rawGet(app.base + page); // fill the page cache
        const identity = await rawGet(app.base + page);
        const gzip = await rawGet(app.base + page, { "Accept-Encoding": "gzip" });
        if (identity.headers["x-page-cache"] !== "HIT")
          console.log(`  note: ${page} is not served from the page cache (${identity.headers["x-page-cache"]})`);
        writeFileSync(path.join(bareDir, `${index}.identity`), identity.body);
        writeFileSync(path.join(bareDir, `${index}.gzip`), gzip.body);
        routes[page] = { index, headers: { identity: sentHeaders(identity), gzip: sentHeaders(gzip) } };
      }
      writeFileSync(path.join(bareDir, "routes.json"), JSON.stringify(routes));
      const barePort = await freePort();
      const bare = spawn(process.execPath, [path.join(root, "bench/_bare-server.mjs"), bareDir, String(barePort)], {
        stdio: ["ignore", "ignore", "inherit"],
      });
      cleanups.push(() => bare.kill("SIGTERM"));
      await waitFor(`http://127.0.0.1:${barePort}/`, bare);

      console.log(
        `\nThroughput, autocannon -c16 -d${SECONDS}s on loopback; the bare server and the app alternate, ${ROUNDS} rounds, best of each:`,
      );
      for (const page of THROUGHPUT_PAGES) {
        for (const encoding of ["identity", "gzip"] as const) {
          const headers: Record<string, string> = encoding === "gzip" ? { "Accept-Encoding": "gzip" } : {};
          let bareRun: LoadRun | undefined;
          let appRun: LoadRun | undefined;
          const best = (a: LoadRun | undefined, b: LoadRun) => (a && a.rps >= b.rps ? a : b);
          for (let round = 0; round < ROUNDS; round++) {
            bareRun = best(bareRun, await load(`http://127.0.0.1:${barePort}${page}`, SECONDS, headers));
            appRun = best(appRun, await load(app.base + page, SECONDS, headers));
          }
          const ratio = appRun!.rps / bareRun!.rps;
          report({
            figure: `req/s ${page} (${encoding}): app vs bare node:http`,
            value: `${fmt(appRun!.rps)} vs ${fmt(bareRun!.rps)} = ${fmt(ratio, 2)}x (p95 ${fmt(appRun!.p95, 2)} vs ${fmt(bareRun!.p95, 2)} ms)`,
            goal: `>= ${RATIO_GOAL}x`,
            ok: ratio >= RATIO_GOAL && appRun!.errors === 0,
          });
        }
      }
      bare.kill("SIGTERM");
      // For scale: the same page rendered for a visitor with a cookie (never cached).
      const rendered = await load(`${app.base}/`, SECONDS, { Cookie: "bench=1", "Accept-Encoding": "gzip" });
      report({
        figure: "req/s / rendered (a cookie: no page cache)",
        value: `${fmt(rendered.rps)} (p95 ${fmt(rendered.p95, 1)} ms)`,
        goal: "information",
        ok: null,
      });
    }

    if (PARTS.has("memory")) {
      // Sustained load, each on a fresh server so the figure is not an earlier run's garbage.
      app.stop();
      app = await startApp(dbUrl.toString());
      console.log(
        `\nMemory: ${LOAD_SECONDS} s of load, RSS sampled every 100 ms, NODE_OPTIONS of the image: "${imageMemoryEnv().NODE_OPTIONS ?? ""}":`,
      );
      const home = await withPeakRss(app.child.pid!, () =>
        load(`${app.base}/`, LOAD_SECONDS, { "Accept-Encoding": "gzip, deflate, br" }),
      );
      report({
        figure: `server RSS during ${LOAD_SECONDS} s of load on /`,
        value: `peak ${fmt(home.peak)} MiB (${fmt(home.before)} before, ${fmt(home.result.rps)} req/s)`,
        goal: `<= ${RSS_GOAL_MIB} MiB`,
        ok: home.peak <= RSS_GOAL_MIB,
      });
      app.stop();
      app = await startApp(dbUrl.toString());
      const cookie = await signIn(app.base);
      const dashboardCheck = await rawGet(`${app.base}/customer-dashboard`, { Cookie: cookie });
      if (dashboardCheck.status !== 200) throw new Error(`customer dashboard answered ${dashboardCheck.status}`);
      const dashboard = await withPeakRss(app.child.pid!, () =>
        load(`${app.base}/customer-dashboard`, LOAD_SECONDS, { Cookie: cookie, "Accept-Encoding": "gzip" }),
      );
      report({
        figure: `server RSS during ${LOAD_SECONDS} s of load on /customer-dashboard (signed in)`,
        value: `peak ${fmt(dashboard.peak)} MiB (${fmt(dashboard.before)} before, ${fmt(dashboard.result.rps)} req/s, p95 ${fmt(dashboard.result.p95, 1)} ms)`,
        goal: `<= ${RSS_GOAL_MIB} MiB`,
        ok: dashboard.peak <= RSS_GOAL_MIB && dashboard.result.errors === 0,
      });

      // A burst of sign-ins: each scrypt hash holds 32 MiB while it runs.
      app.stop();
      app = await startApp(dbUrl.toString());
      const burst = await withPeakRss(app.child.pid!, () =>
        Promise.all(
          Array.from({ length: SIGN_IN_BURST }, (_, i) => {
            const body = new URLSearchParams({
              intent: "signin",
              email: `burst-${i}@example.com`,
              password: "not-the-password",
            }).toString();
            return rawGet(
              `${app.base}/auth`,
              {
                "Content-Type": "application/x-www-form-urlencoded",
                Origin: app.base,
                "Content-Length": String(Buffer.byteLength(body)),
              },
              "POST",
              body,
            );
          }),
        ),
      );
      const statuses = new Map<number, number>();
      for (const r of burst.result) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      const answered = [...statuses].map(([status, count]) => `${count}x ${status}`).join(", ");
      report({
        figure: `server RSS during ${SIGN_IN_BURST} sign-ins at once (scrypt, 32 MiB each)`,
        value: `peak ${fmt(burst.peak)} MiB (${fmt(burst.before)} before; ${answered})`,
        goal: `<= ${RSS_GOAL_MIB} MiB`,
        ok: burst.peak <= RSS_GOAL_MIB && burst.result.every((r) => r.status < 500),
      });
    }
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
    await new Promise((r) => setTimeout(r, 500));
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
    rmSync(bareDir, { recursive: true, force: true });
  }
}

await main();
