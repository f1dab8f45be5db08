// The portal at scale, on PostgreSQL: seeds customers, visits, media, bookings and quote requests
// with generate_series at 10k customers and at full size (100,000 customers, 2,000,000 visits,
// 4,000,000 media rows, 500,000 bookings, 200,000 quote requests), then
//  - times the customer dashboard's loader in this process (signed in, against that database);
//  - starts the production server (server.js) on that database and times, one request at a
//    time over HTTP, the customer dashboard and the admin pages: the dashboard with each tab,
//    the picker's search, one day of visits, today, one page of customers, the last page of quote
//    requests; the admin dashboard's HTML size; the customer dashboard under 16 users (autocannon);
//  - prints the query plans of those pages (index scans, no sequential scan of a big table).
// Run: npm run build && npm run bench scale   BENCH_SCALE=10k (or full-only) for one size only (full
// seeding takes minutes). BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
// names the server; each size gets a database of its own, dropped at the end.
// BENCH_HTML_DIR=<folder> saves each page's HTML there (<size>-<page>.html), to see where its
// bytes go. The biggest admin pages are also rendered by the build's Remix handler in a
// production process without HTTP (bench/_render-pages.mjs); BENCH_BASELINE_BUILD=<path to
// another build/index.js> renders them with that build too, in turns, and prints this build's
// CPU time as a ratio of that one's (noisy on a busy machine, but both sides share the noise);
// BENCH_RENDER_PROFILE=<folder> writes a CPU profile of those renders there.
// BENCH_SCALE_KEEP=1 keeps each size's database (its name is printed) instead of dropping it;
// BENCH_SCALE_DATABASE=<name> measures that kept database again without seeding (one size, the
// one named by BENCH_SCALE), so a change can be timed in seconds rather than after minutes of
// seeding.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { startAppServer, type AppServer } from "../tests/helpers/app-server";
import { runLoad } from "./_load";
import { renderInProcess, type RenderTiming } from "./_render-in-process";
import { fmt, report } from "./_report";
import { seedPortal, seededCounts } from "./_seed-portal";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false", SESSION_SECRET });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { setDatabaseForTests } = await import("~/utils/db.server");
const { createUserSessionHeaders } = await import("~/utils/session.server");
const { loader } = await import("~/routes/customer-dashboard");

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const SIZES = [
  { name: "10k", customers: 10_000 },
  { name: "full", customers: 100_000 },
].filter((size) => {
  // full: both sizes (the growth figures need both); 10k or full-only: that size alone.
  const asked = process.env.BENCH_SCALE ?? "full";
  return asked === "full" || size.name === asked || (asked === "full-only" && size.name === "full");
});
if (process.env.BENCH_SCALE_DATABASE && !["10k", "full-only"].includes(process.env.BENCH_SCALE ?? "")) {
  throw new Error(
    "BENCH_SCALE_DATABASE measures one kept database: say its size, BENCH_SCALE=10k or BENCH_SCALE=full-only",
  );
}
const SAMPLE_CUSTOMERS = 50;
const CALLS = 600;
const HTTP_CALLS = Number(process.env.BENCH_HTTP_CALLS || 200);
const RENDER_CALLS = Number(process.env.BENCH_RENDER_CALLS || 100);
const HTML_DIR = process.env.BENCH_HTML_DIR;
const BASELINE_BUILD = process.env.BENCH_BASELINE_BUILD;
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS || 10);
const P95_GOAL_MS = 20;
const GROWTH_GOAL = 1.5;
const ADMIN_HTML_GOAL_KB = 60;
const KEEP_DATABASE = process.env.BENCH_SCALE_KEEP === "1";
const REUSE_DATABASE = process.env.BENCH_SCALE_DATABASE;
const BIG_TABLES = [
  "users",
  "profiles",
  "services",
  "service_images",
  "bookings",
  "sessions",
  "quote_requests",
  "customer_plans",
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The plans of the pages' queries, and which of them scan a big table sequentially. */
async function plans(db: Kysely<Database>, customerId: string, visitId: string, day: string) {
  const notAdmin = "not exists (select 1 from user_roles r where r.user_id = u.id)";
  const queries: [string, string][] = [
    ["dashboard: services", `select * from services where customer_id = $1 order by service_date desc, id limit 5`],
    ["dashboard: bookings", `select * from bookings where customer_id = $1 order by booking_date desc, id limit 5`],
    [
      "dashboard: media",
      `select * from service_images where service_id in (select id from services where customer_id = $1
        order by service_date desc, id limit 5) order by created_at desc, id desc limit 4`,
    ],
    [
      "session user",
      `select u.id, email, full_name from users u left join profiles on profiles.user_id = u.id where u.id = $1`,
    ],
    [
      "admin: picker search 'rivera 123' (matching ids, capped)",
      `select id from users where lower(email) like '%rivera 123%'
        union all select user_id from profiles where lower(full_name) like '%rivera 123%' limit 1001`,
    ],
    [
      "admin: picker search 'example' (a common term: e-mail order, filtered)",
      `select u.id, u.email, p.full_name from users u left join profiles p on p.user_id = u.id where ${notAdmin}
        and (lower(u.email) like '%example%' or lower(p.full_name) like '%example%') order by lower(u.email) limit 20`,
    ],
    [
      "admin: customers, a page",
      `select u.id, u.email, p.full_name from users u left join profiles p on p.user_id = u.id where ${notAdmin}
        and lower(u.email) > 'customer5' order by lower(u.email) limit 26`,
    ],
    [
      "admin: customers, no plan, a page (users_without_open_plan_email_idx: 094)",
      `select u.id, u.email, p.full_name from users u left join profiles p on p.user_id = u.id where ${notAdmin}
        and not u.has_open_plan and lower(u.email) > 'customer5' order by lower(u.email) limit 26`,
    ],
    [
      "admin: customers, the page's plans",
      `select customer_id, catalogue_plan_name, weekdays, status from customer_plans where status <> 'cancelled'
        and customer_id in (select id from users where lower(email) > 'customer5' order by lower(email) limit 25)`,
    ],
    ["admin: upload tab media", `select * from service_images where service_id = $2 order by created_at desc, id desc`],
    [
      "admin: quotes, oldest page",
      `select id, name, created_at from quote_requests order by created_at asc, id asc limit 26`,
    ],
    [
      "admin: quotes, older than a request",
      `select id, name, created_at from quote_requests where (created_at, id) <
        (select c.created_at, c.id from quote_requests c where c.id = (select id from quote_requests order by created_at, id offset 5000 limit 1))
        order by created_at desc, id desc limit 26`,
    ],
    [
      "admin: quotes, status 'won', older than a request",
      `select id, name, created_at from quote_requests where status = 'won' and (created_at, id) <
        (select c.created_at, c.id from quote_requests c where c.id = (select id from quote_requests order by created_at, id offset 5000 limit 1))
        order by created_at desc, id desc limit 26`,
    ],
    [
      "admin: quote counts (capped)",
      `select (select count(*) from (select 1 from quote_requests limit 1001) a),
        (select count(*) from (select 1 from quote_requests where status = 'new' limit 1001) b)`,
    ],
    [
      "admin: visits, one day (the page's visits first, then their customers: 077)",
      `select s.id from (select id, customer_id, service_date from services
          where service_date >= '${day}'::timestamptz and service_date < '${day}'::timestamptz + interval '1 day'
          order by service_date, id limit 51) s
        join users u on u.id = s.customer_id left join profiles p on p.user_id = s.customer_id
        left join yard_profiles y on y.user_id = s.customer_id order by s.service_date, s.id`,
    ],
    [
      "admin: today, the page after a visit (keyset on the visit's stored (service_date, id))",
      `select s.id from (select id, customer_id, service_date from services
          where service_date >= '${day}'::timestamptz and service_date < '${day}'::timestamptz + interval '1 day'
            and (service_date, id) > (select a.service_date, a.id from services a where a.id = $2)
          order by service_date, id limit 51) s
        join users u on u.id = s.customer_id left join profiles p on p.user_id = s.customer_id
        left join yard_profiles y on y.user_id = s.customer_id order by s.service_date, s.id`,
    ],
    [
      "admin: bookings, upcoming (the page's bookings first, then their customers and visits: 077)",
      `select b.*, u.email, p.full_name, s.id as visit_id from (select * from bookings where booking_date >= now()
          order by booking_date, id limit 26) b left join users u on u.id = b.customer_id
        left join profiles p on p.user_id = b.customer_id left join services s on s.booking_id = b.id
        order by b.booking_date, b.id`,
    ],
    [
      "admin: bookings, past",
      `select b.*, u.email, p.full_name, s.id as visit_id from (select * from bookings where booking_date < now()
          order by booking_date desc, id desc limit 26) b left join users u on u.id = b.customer_id
        left join profiles p on p.user_id = b.customer_id left join services s on s.booking_id = b.id
        order by b.booking_date desc, b.id desc`,
    ],
  ];
  const lines: string[] = [];
  const sequential: string[] = [];
  for (const [name, text] of queries) {
    const result = await sql
      .raw<{ "QUERY PLAN": string }>(
        `explain ${text.replace("$1", literal(customerId)).replace("$2", literal(visitId))}`,
      )
      .execute(db);
    const plan = result.rows.map((r) => r["QUERY PLAN"]);
    if (plan.some((l, i) => BIG_TABLES.some((t) => new RegExp(`Seq Scan on ${t}\\b`).test(l)) && !bounded(plan, i)))
      sequential.push(name);
    lines.push(`  ${name}:`, ...plan.map((l) => `    ${l}`));
  }
  return { text: lines.join("\n"), sequential };
}

/**
 * A sequential scan without a filter straight under a Limit reads at most that many rows (a
 * capped count reads 1,001 rows of any order: the planner rightly takes the heap): not a scan
 * of the big table.
 */
function bounded(plan: string[], line: number): boolean {
  const indent = (l: string) => l.search(/\S/);
  // A filtered scan may read the whole table before it finds enough rows.
  for (let i = line + 1; i < plan.length && indent(plan[i]) > indent(plan[line]); i++) {
    if (/^\s*Filter:/.test(plan[i])) return false;
  }
  for (let i = line - 1; i >= 0; i--) {
    if (indent(plan[i]) < indent(plan[line])) return /^\s*(->\s+)?Limit\b/.test(plan[i]);
  }
  return false;
}

function literal(value: unknown): string {
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The production server on a seeded database (no dev data: the bench's own rows). */
function startApp(databaseUrl: string): Promise<AppServer> {
  return startAppServer(
    { DATABASE_URL: databaseUrl, SESSION_SECRET, SEED_DEV_DATA: "false", LOG_LEVEL: "error" },
    { ready: "healthy", stdio: "inherit" },
  );
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** One GET on a kept-alive connection, bytes as sent (identity). */
function get(url: string, cookie: string): Promise<{ status: number; ms: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: { Cookie: cookie, Accept: "text/html" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
  });
}

type Timing = { p50: number; p95: number; bytes: number; gzip: number };
async function timeHttp(url: string, cookies: string[], save?: string): Promise<Timing> {
  const first = await get(url, cookies[0]);
  if (first.status !== 200) throw new Error(`${url} answered ${first.status}`);
  if (save && HTML_DIR) {
    mkdirSync(HTML_DIR, { recursive: true });
    writeFileSync(path.join(HTML_DIR, `${save.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.html`), first.bytes);
  }
  for (let i = 0; i < 20; i++) await get(url, cookies[i % cookies.length]);
  const times: number[] = [];
  for (let i = 0; i < HTTP_CALLS; i++) {
    const r = await get(url, cookies[i % cookies.length]);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    bytes: first.bytes.length,
    gzip: gzipSync(first.bytes).length,
  };
}

/** The customer dashboard under 16 users (bench/_load.ts). */
async function dashboardLoad(url: string, cookie: string): Promise<{ rps: number; p50: number; p95: number }> {
  const { rps, p50, p95 } = await runLoad({ url, duration: LOAD_SECONDS, headers: { Cookie: cookie } });
  return { rps, p50, p95 };
}

type Render = RenderTiming & { label: string; baseline: RenderTiming | null };
/** Renders pages with this build (and the baseline build, in turns) in a production process of their own. */
function timeRenders(databaseUrl: string, pages: [string, string][], cookie: string): Render[] {
  const builds = [path.join(root, "build/index.js"), ...(BASELINE_BUILD ? [path.resolve(BASELINE_BUILD)] : [])];
  const results = renderInProcess({
    databaseUrl,
    sessionSecret: SESSION_SECRET,
    builds,
    pages,
    cookie,
    calls: RENDER_CALLS,
    htmlDir: HTML_DIR,
  });
  return results.map(({ label, builds: [ours, theirs] }) => ({ label, ...ours, baseline: theirs ?? null }));
}

type SizeResult = {
  loader: { p50: number; p95: number };
  pages: Map<string, Timing>;
  renders: Render[];
  load: { rps: number; p50: number; p95: number } | null;
  sequential: string[];
};

async function measure(size: { name: string; customers: number }): Promise<SizeResult> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const name = REUSE_DATABASE ?? `bench_scale_${size.name}_${randomBytes(3).toString("hex")}`;
  if (!REUSE_DATABASE) await admin.query(`create database "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = connect({ databaseUrl: url.toString(), poolSize: 10 });
  let app: AppServer | undefined;
  try {
    await migrateToLatest(handle.db);
    const seeded = REUSE_DATABASE ? await seededCounts(handle.db) : await seedPortal(handle.db, size.customers);
    console.log(
      `\n${size.name}: ${REUSE_DATABASE ? `reusing ${name}:` : "seeded"} ${fmt(seeded.users)} users, ${fmt(seeded.services)} visits, ${fmt(seeded.media)} media, ${fmt(seeded.bookings)} bookings, ${fmt(seeded.quotes)} quote requests in ${fmt(seeded.seconds)} s`,
    );
    setDatabaseForTests(handle.db);
    const sample = await sql<{
      id: string;
    }>`select id from users where email like '%@bench.example' order by random() limit ${SAMPLE_CUSTOMERS}`.execute(
      handle.db,
    );
    const cookies: string[] = [];
    for (const { id } of sample.rows) {
      const headers = await createUserSessionHeaders(new Request("http://localhost/"), id);
      cookies.push((headers.get("Set-Cookie") ?? "").split(";")[0]);
    }
    // An admin signed in with password and code: its session passed the second step (decision 024).
    const adminHeaders = await createUserSessionHeaders(new Request("http://localhost/"), seeded.adminId, {
      secondStepAt: new Date(),
    });
    const adminCookie = (adminHeaders.get("Set-Cookie") ?? "").split(";")[0];

    // 1. The customer dashboard's loader in this process: the database work alone.
    const call = async (i: number) => {
      const request = new Request("http://localhost/customer-dashboard", {
        headers: { Cookie: cookies[i % cookies.length] },
      });
      const started = performance.now();
      const response = (await loader({ request, params: {}, context: {} })) as Response;
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`dashboard answered ${response.status}`);
      const data = (await response.json()) as { recentVisits: unknown[]; visitMedia: unknown[] };
      if (data.recentVisits.length !== 5) throw new Error("expected 5 visits on the dashboard");
      return ms;
    };
    for (let i = 0; i < 50; i++) await call(i); // warm-up: connections, plans, JIT
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) times.push(await call(i));
    times.sort((a, b) => a - b);

    const someVisit = await sql<{ id: string; day: string }>`select id,
        to_char(service_date at time zone 'America/Los_Angeles', 'YYYY-MM-DD') as day
      from services order by service_date desc, id limit 1 offset ${size.customers * 3}`.execute(handle.db);
    const { id: visitId, day } = someVisit.rows[0];
    // A customer half-way along the e-mail order: the cursor of a later page of the Customers list.
    const middleRow = await sql<{ id: string; email: string }>`select id, email from users
      where lower(email) > 'customer5' order by lower(email) limit 1`.execute(handle.db);
    const middle = middleRow.rows[0];
    const plan = await plans(handle.db, sample.rows[0].id, visitId, day);
    console.log(`query plans at ${size.name}:\n${plan.text}`);

    // 2. The pages over HTTP, one request at a time, on the production server.
    const pages = new Map<string, Timing>();
    let renders: Render[] = [];
    let load: SizeResult["load"] = null;
    if (!existsSync(path.join(root, "build/index.js"))) {
      console.log("  no production build (npm run build): HTTP figures skipped");
    } else {
      app = await startApp(url.toString());
      const base = app.url;
      const adminPages: [string, string][] = [
        ["admin dashboard, Create Service tab", "/admin-dashboard"],
        ["admin dashboard, picker search without JS", "/admin-dashboard?tab=create&customerSearch=rivera+123"],
        ["admin dashboard, Upload Images tab", `/admin-dashboard?tab=upload&service=${visitId}`],
        ["picker search (resource route)", "/resources/customer-search?q=rivera+123"],
        ["admin visits, one day", `/admin-dashboard/visits?from=${day}&to=${day}`],
        ["admin visits, today", "/admin-dashboard/visits/today"],
        ["admin customers, first page", "/admin-dashboard/customers"],
        ["admin customers, search", "/admin-dashboard/customers?q=okafor+77"],
        ["admin customers, no plan", "/admin-dashboard/customers?plan=none"],
        [
          "admin customers, no plan, a later page",
          `/admin-dashboard/customers?${new URLSearchParams({ plan: "none", after: `${middle.email}~${middle.id}` })}`,
        ],
        ["admin quote requests, newest page", "/admin-dashboard/quotes"],
        ["admin quote requests, last page", "/admin-dashboard/quotes?oldest=1"],
        ["admin bookings", "/admin-dashboard/bookings"],
      ];
      const dashboardLabel = "customer dashboard (HTTP)";
      pages.set(
        dashboardLabel,
        await timeHttp(`${base}/customer-dashboard`, cookies, `${size.name}-${dashboardLabel}`),
      );
      for (const [label, pathname] of adminPages) {
        pages.set(label, await timeHttp(`${base}${pathname}`, [adminCookie], `${size.name}-${label}`));
      }
      load = await dashboardLoad(`${base}/customer-dashboard`, cookies[0]);
      // 3. The biggest admin pages rendered in this process: loader + React + the HTML.
      const rendered = [
        "admin visits, today",
        "admin bookings",
        "admin visits, one day",
        "admin quote requests, newest page",
      ];
      renders = timeRenders(
        url.toString(),
        adminPages.filter(([label]) => rendered.includes(label)),
        adminCookie,
      );
    }
    return {
      loader: { p50: percentile(times, 50), p95: percentile(times, 95) },
      pages,
      renders,
      load,
      sequential: plan.sequential,
    };
  } finally {
    // The server goes first, so that dropping its database does not cut its connections.
    await app?.stop();
    setDatabaseForTests(undefined);
    await handle.close();
    if (KEEP_DATABASE || REUSE_DATABASE) console.log(`  kept database ${name} (BENCH_SCALE_DATABASE=${name})`);
    else await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const results = new Map<string, SizeResult>();
for (const size of SIZES) results.set(size.name, await measure(size));
const small = results.get("10k");
const full = results.get("full");
for (const [name, r] of results) {
  report({
    figure: `customer dashboard loader p50 / p95 at ${name} (in process, ${CALLS} calls, one at a time)`,
    value: `${fmt(r.loader.p50, 2)} / ${fmt(r.loader.p95, 2)} ms`,
    goal: `p95 <= ${P95_GOAL_MS} ms`,
    ok: r.loader.p95 <= P95_GOAL_MS,
  });
  for (const [label, t] of r.pages) {
    report({
      figure: `${label} p50 / p95 at ${name} (HTTP, one at a time)`,
      value: `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms (${fmt(t.bytes / 1024, 1)} KB)`,
      goal: `p95 <= ${P95_GOAL_MS} ms`,
      ok: t.p95 <= P95_GOAL_MS,
    });
  }
  const dashboard = r.pages.get("admin dashboard, Create Service tab");
  if (dashboard) {
    report({
      figure: `admin dashboard HTML at ${name} (identity / gzip)`,
      value: `${fmt(dashboard.bytes / 1024, 1)} / ${fmt(dashboard.gzip / 1024, 1)} KB`,
      goal: `< ${ADMIN_HTML_GOAL_KB} KB`,
      ok: dashboard.bytes < ADMIN_HTML_GOAL_KB * 1024,
    });
  }
  for (const render of r.renders) {
    const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
    const one = (t: RenderTiming) => `${fmt(t.p50, 2)} ms, CPU ${fmt(t.cpu50, 2)} ms (${kb(t.bytes)})`;
    report({
      figure: `${render.label} rendered in process at ${name}: p50 wall, p50 CPU (${RENDER_CALLS} calls)${render.baseline ? ", vs the baseline build" : ""}`,
      value: render.baseline
        ? `${one(render)} vs ${one(render.baseline)}: CPU ${fmt(render.cpu50 / render.baseline.cpu50, 2)}x`
        : one(render),
      goal: "information",
      ok: null,
    });
  }
  if (r.load) {
    // Under load the latency is mostly queueing: 16 connections share 2 cores.
    report({
      figure: `customer dashboard under autocannon -c16 at ${name}: req/s, p50 / p95`,
      value: `${fmt(r.load.rps)} req/s, ${fmt(r.load.p50, 1)} / ${fmt(r.load.p95, 1)} ms`,
      goal: "information",
      ok: null,
    });
  }
  report({
    figure: `query plans at ${name}: no sequential scan of a big table`,
    value: r.sequential.length ? `Seq Scan in: ${r.sequential.join("; ")}` : "index scans only",
    goal: "index scans",
    ok: r.sequential.length === 0,
  });
}
if (small && full) {
  const growth = (a: number, b: number) => b / a;
  const loaderGrowth = growth(small.loader.p95, full.loader.p95);
  report({
    figure: "customer dashboard loader p95, full size vs 10k",
    value: `${fmt(loaderGrowth, 2)}x`,
    goal: `<= ${GROWTH_GOAL}x`,
    ok: loaderGrowth <= GROWTH_GOAL,
  });
  for (const [label, t] of full.pages) {
    const before = small.pages.get(label);
    if (!before) continue;
    const g = growth(before.p95, t.p95);
    report({
      figure: `${label} p95, full size vs 10k`,
      value: `${fmt(before.p95, 2)} -> ${fmt(t.p95, 2)} ms = ${fmt(g, 2)}x`,
      goal: `<= ${GROWTH_GOAL}x`,
      ok: g <= GROWTH_GOAL,
    });
  }
}
agent.destroy();
