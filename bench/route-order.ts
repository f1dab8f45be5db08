// Today in route order at scale (issue 26, item 7; docs/decisions/093):
//  1. ordering 100 stops (nearest neighbour + 2-opt, pure code): p95 of 200 orderings of random
//     stops around Las Vegas, goal <= 50 ms;
//  2. Today at 100,000 customers (each with a yard and coordinates) and 2,000,000 visits (20 a
//     customer over the past 20 weeks) with 100 stops today: timed in this process through the
//     production build's Remix request handler, and over HTTP against the production server
//     (server.js with the Dockerfile's memory settings), each beside an unchanged control page,
//     the Visits list of the same day; prints p50/p95 and Today's p95 as a ratio of the control's.
// Run: npm run build && npm run bench route-order   BENCH_SCALE=10k for a quick run (10,000
// customers, 200,000 visits). BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
// names the server; the database is made for the run and dropped at the end
// (BENCH_ROUTE_KEEP=1 keeps it; BENCH_ROUTE_DATABASE=<name> measures a kept one again;
// BENCH_ROUTE_HTML=<folder> saves Today's and the control's HTML there). The in-process renders
// (bench/_render-in-process.ts) and the HTTP turns (bench/_http-turns.ts) are plan-pages.ts's.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { imageMemoryEnv, startAppServer, type AppServer } from "../tests/helpers/app-server";
import { closeHttp, percentile, timeHttpInTurns } from "./_http-turns";
import { renderInProcess } from "./_render-in-process";
import { fmt, report } from "./_report";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CUSTOMERS = process.env.BENCH_SCALE === "10k" ? 10_000 : 100_000;
const SIZE = CUSTOMERS === 10_000 ? "10k" : "100k";
const VISITS_PER_CUSTOMER = 20;
const STOPS_TODAY = 100;
const ORDER_RUNS = 200;
const CALLS = Number(process.env.BENCH_HTTP_CALLS || 300);
const ORDER_GOAL_MS = 50;
const P95_GOAL_MS = 20;
const KEEP = process.env.BENCH_ROUTE_KEEP === "1";
const REUSE = process.env.BENCH_ROUTE_DATABASE;
/** BENCH_ROUTE_HTML=<folder> saves Today's HTML there, to see where its bytes go. */
const HTML_DIR = process.env.BENCH_ROUTE_HTML;
const BUSINESS_TODAY = sql`(now() at time zone 'America/Los_Angeles')::date`;

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

// ---- 1. Ordering 100 stops -------------------------------------------------------------------
{
  const { orderStops } = await import("~/features/route/route-order");
  const start = { latitude: 36.163631, longitude: -115.98748 };
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const times: number[] = [];
  for (let run = 0; run < ORDER_RUNS + 20; run++) {
    const stops = Array.from({ length: STOPS_TODAY }, () => ({
      latitude: 35.95 + random() * 0.35,
      longitude: -115.35 + random() * 0.4,
    }));
    const started = performance.now();
    orderStops(start, stops);
    if (run >= 20) times.push(performance.now() - started);
  }
  const t = summary(times);
  report({
    figure: `ordering ${STOPS_TODAY} stops (nearest neighbour + 2-opt) p50 / p95 of ${ORDER_RUNS} random days`,
    value: `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms`,
    goal: `p95 <= ${ORDER_GOAL_MS} ms`,
    ok: t.p95 <= ORDER_GOAL_MS,
  });
}

// ---- 2. Today at scale ----------------------------------------------------------------------
if (!existsSync(path.join(root, "build/index.js"))) {
  console.log("  no production build (npm run build): Today at scale skipped");
  process.exit(0);
}

async function seed(db: Kysely<any>) {
  const started = Date.now();
  await sql`insert into users (email, created_at)
    select 'route' || g || '@bench.example', now() - (g || ' minutes')::interval
    from generate_series(1, ${CUSTOMERS}) g`.execute(db);
  await sql`create temporary table bench_customers as
    select id, split_part(split_part(email, '@', 1), 'route', 2)::int as n from users where email like '%@bench.example'`.execute(
    db,
  );
  await sql`create index on bench_customers (n)`.execute(db);
  await sql`insert into profiles (user_id, full_name) select id, 'Route Customer ' || n from bench_customers`.execute(
    db,
  );
  // Yards spread over the Las Vegas valley, each with coordinates, a ZIP code and a gate code.
  await sql`insert into yard_profiles (user_id, street, city, zip, gate_code, dog_count, latitude, longitude)
    select id, n || ' Desert Rd', 'Las Vegas', '89117', '1234', 1 + n % 3,
      35.95 + ((n::bigint * 7919) % 1000) / 1000.0 * 0.35, -115.35 + ((n::bigint * 104729) % 1000) / 1000.0 * 0.4
    from bench_customers`.execute(db);
  // 20 past visits a customer, weekly, never today; then today's 100 stops.
  await sql`insert into services (customer_id, service_type, service_date, status, created_at)
    select c.id, 'Weekly Service',
      ((${BUSINESS_TODAY} - (7 * (1 + w) - c.n % 5)) + time '08:00') at time zone 'America/Los_Angeles',
      'completed', now()
    from bench_customers c cross join generate_series(0, ${VISITS_PER_CUSTOMER - 1}) w`.execute(db);
  await sql`insert into services (customer_id, service_type, service_date, status, created_at)
    select c.id, 'Weekly Service', (${BUSINESS_TODAY} + time '08:00') at time zone 'America/Los_Angeles', 'scheduled', now()
    from bench_customers c where c.n <= ${STOPS_TODAY}`.execute(db);
  const admin = await sql<{ id: string }>`insert into users (email, email_verified_at)
    values ('admin@bench.example.org', now()) returning id`.execute(db);
  await sql`insert into user_roles (user_id, role) values (${admin.rows[0].id}, 'owner')`.execute(db);
  await sql`insert into user_totp (user_id, secret, enabled_at) values (${admin.rows[0].id}, 'JBSWY3DPEHPK3PXP', now())`.execute(
    db,
  );
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);
  return (Date.now() - started) / 1000;
}

const TODAY_PATH = "/admin-dashboard/visits/today";

const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
const name = REUSE ?? `bench_route_${SIZE}_${randomBytes(3).toString("hex")}`;
if (!REUSE) await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
// The control: the admin's Visits list of the same day (50 rows), a page this work left alone.
let controlPath = "";
let app: AppServer | undefined;
let closeDb: (() => Promise<void>) | undefined;
try {
  Object.assign(process.env, {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SEED_DEV_DATA: "false",
    SESSION_SECRET,
    DATABASE_URL: url.toString(),
  });
  const { connect } = await import("../db/connection");
  const { migrateToLatest } = await import("../db/migrator");
  const handle = connect({ databaseUrl: url.toString(), poolSize: 4 });
  closeDb = () => handle.close();
  await migrateToLatest(handle.db);
  const seconds = REUSE ? 0 : await seed(handle.db);
  const counts = await sql<{ users: number; visits: number; today: string }>`select
    (select count(*) from users)::int as users, (select count(*) from services)::int as visits,
    ${BUSINESS_TODAY}::text as today`.execute(handle.db);
  const { users, visits, today } = counts.rows[0];
  console.log(
    `${SIZE}: ${REUSE ? `reusing ${name}` : "seeded"} ${fmt(users)} users, ${fmt(visits)} visits in ${fmt(seconds)} s`,
  );
  controlPath = `/admin-dashboard/visits?from=${today}&to=${today}`;
  const adminId = (
    await sql<{ id: string }>`select id from users where email = 'admin@bench.example.org'`.execute(handle.db)
  ).rows[0].id;

  // In process: the production build's request handler (no HTTP, no Express), signed in, in a
  // production process of its own (React's production build), as bench/scale.ts renders.
  const { createUserSessionHeaders } = await import("~/utils/session.server");
  const cookie = (
    (await createUserSessionHeaders(new Request("http://localhost/"), adminId, { secondStepAt: new Date() })).get(
      "Set-Cookie",
    ) ?? ""
  ).split(";")[0];
  const [todayRender, controlRender] = renderInProcess({
    databaseUrl: url.toString(),
    sessionSecret: SESSION_SECRET,
    builds: [path.join(root, "build/index.js")],
    pages: [
      ["today", TODAY_PATH],
      ["control", controlPath],
    ],
    cookie,
    calls: CALLS,
    htmlDir: HTML_DIR,
    interleave: true,
  }).map((page) => page.builds[0]);
  const inProcess = { today: todayRender, control: controlRender, kb: todayRender.bytes / 1024 };

  // Over HTTP: the production server as Fly runs it.
  const memory = imageMemoryEnv();
  app = await startAppServer(
    { DATABASE_URL: url.toString(), SESSION_SECRET, SEED_DEV_DATA: "false", LOG_LEVEL: "error", ...memory },
    { ready: "healthy", stdio: "inherit" },
  );
  const base = app.url;
  const [todayHttp, controlHttp] = await timeHttpInTurns(
    [
      // Today really answered with the day's route.
      {
        targets: [{ url: `${base}${TODAY_PATH}`, cookie }],
        mustContain: ["Estimated arrival", `${STOPS_TODAY} stops`],
      },
      { targets: [{ url: `${base}${controlPath}`, cookie }], mustContain: "Visits" },
    ],
    { calls: CALLS, warmup: 20 },
  );
  const overHttp = { today: todayHttp, control: controlHttp, kb: todayHttp.kb };

  for (const [how, t] of [
    ["in process (the build's Remix handler, NODE_ENV=production)", inProcess],
    [`over HTTP (server.js, NODE_OPTIONS="${memory.NODE_OPTIONS ?? ""}")`, overHttp],
  ] as const) {
    report({
      figure: `Today (${STOPS_TODAY} stops in route order) p50 / p95 at ${SIZE} customers, ${fmt(visits)} visits, ${how}, ${CALLS} calls`,
      // In process, also this process's CPU time a render (the median): less noisy on a shared machine.
      value: `${fmt(t.today.p50, 2)} / ${fmt(t.today.p95, 2)} ms (${fmt(t.kb, 1)} KB of HTML${"cpu50" in t.today ? `, CPU p50 ${fmt(t.today.cpu50, 2)} ms` : ""})`,
      goal: `p95 <= ${P95_GOAL_MS} ms`,
      ok: t.today.p95 <= P95_GOAL_MS,
    });
    report({
      figure: `Today's p95 vs the control (the Visits list of the day, unchanged) ${how}`,
      value: `${fmt(t.today.p95, 2)} vs ${fmt(t.control.p95, 2)} ms = ${fmt(t.today.p95 / t.control.p95, 2)}x${
        "cpu50" in t.today && "cpu50" in t.control
          ? `; CPU p50 ${fmt(t.today.cpu50, 2)} vs ${fmt(t.control.cpu50, 2)} ms = ${fmt(t.today.cpu50 / t.control.cpu50, 2)}x`
          : ""
      }`,
      goal: "information",
      ok: null,
    });
  }
} finally {
  await app?.stop();
  await closeDb?.();
  if (KEEP || REUSE) console.log(`  kept database ${name} (BENCH_ROUTE_DATABASE=${name})`);
  else await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  closeHttp();
}
