// "Your Plan" and the admin's customer page at scale (issue 25, item 8: p95 <= 20 ms at 100,000
// customers): seeds 100,000 customers on PostgreSQL, each with a customer plan (60% weekly, 30%
// twice-weekly, 10% thrice-weekly; 5% paused, 5% cancelled), the plan's visits for 8 weeks back
// (completed) and the 4-week horizon ahead (scheduled, or skipped in a pause), and a history line
// each; then times /customer-dashboard/plan (signed in as 50 sampled customers in turn),
// /admin-dashboard/customers/:id (the admin, the same 50 customers in turn), the customer
// dashboard with its plan card, and a control page the plans do not touch (the customer's
// yard), in turns so that their ratios hold on a shared machine:
//  - in process, through the Remix request handler of the production build (loader, React, HTML;
//    no HTTP), and with BENCH_BASELINE_BUILD=<an older build/index.js> that build in turns;
//  - over HTTP, one request at a time, on the production server (server.js) with the
//    Dockerfile's memory settings;
// and prints the query plans of the plan reads.
// Run: npm run build && npm run bench plan-pages   BENCH_SCALE=10k for a quick run at 10,000.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the
// database is made for the run and dropped at the end (BENCH_PLAN_KEEP=1 keeps it and prints its
// name; BENCH_PLAN_DATABASE=<name> measures a kept one again without seeding, after migrating it).
// BENCH_RENDER_CALLS / BENCH_HTTP_CALLS: calls per page (300 each).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { imageMemoryEnv, startAppServer, type AppServer } from "../tests/helpers/app-server";
import { closeHttp, timeHttpInTurns } from "./_http-turns";
import { renderInProcess, type RenderTiming } from "./_render-in-process";
import { fmt, report } from "./_report";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false", SESSION_SECRET });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { createUserSessionHeaders } = await import("~/utils/session.server");
const { setDatabaseForTests } = await import("~/utils/db.server");

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CUSTOMERS = process.env.BENCH_SCALE === "10k" ? 10_000 : 100_000;
const SIZE = CUSTOMERS === 10_000 ? "10k" : "100k";
const PAST_DAYS = 56;
const HORIZON_DAYS = 28;
const SAMPLE = 50;
const HTTP_CALLS = Number(process.env.BENCH_HTTP_CALLS || 300);
const P95_GOAL_MS = 20;
/** Over HTTP on a shared machine: within this many times the control page's p95. */
const HTTP_RATIO_GOAL = 1.2;
const RENDER_CALLS = Number(process.env.BENCH_RENDER_CALLS || 300);
const BASELINE_BUILD = process.env.BENCH_BASELINE_BUILD;
const KEEP = process.env.BENCH_PLAN_KEEP === "1";
const REUSE = process.env.BENCH_PLAN_DATABASE;
const BUSINESS_TODAY = sql`(now() at time zone 'America/Los_Angeles')::date`;

async function seed(db: Kysely<Database>, customers: number) {
  const started = Date.now();
  await sql`insert into users (email, created_at)
    select 'plan' || g || '@bench.example', now() - (g || ' minutes')::interval
    from generate_series(1, ${customers}) g`.execute(db);
  await sql`insert into profiles (user_id, full_name)
    select id, (array['Avery','Blake','Casey','Drew','Emery','Finley','Gray','Harper'])[1 + n % 8] || ' ' ||
      (array['Stone','Rivera','Nguyen','Okafor','Larsen','Patel','Kim','Moreau','Silva','Walsh'])[1 + (n / 8) % 10] || ' ' || n
    from (select id, split_part(split_part(email, '@', 1), 'plan', 2)::int as n from users where email like '%@bench.example') c`.execute(
    db,
  );
  const admin = await sql<{ id: string }>`insert into users (email, email_verified_at)
    values ('admin@bench.example.org', now()) returning id`.execute(db);
  const adminId = admin.rows[0].id;
  await sql`insert into user_roles (user_id, role) values (${adminId}, 'owner')`.execute(db);
  await sql`insert into user_totp (user_id, secret, enabled_at) values (${adminId}, 'JBSWY3DPEHPK3PXP', now())`.execute(
    db,
  );
  // One plan per customer; k visits a week: 60% 1, 30% 2, 10% 3. Every 20th paused for two
  // weeks from today, every 20th + 1 cancelled (last visit two days ago).
  await sql`insert into customer_plans (customer_id, catalogue_plan_id, catalogue_plan_name, visits_per_week, weekdays,
      dog_count, yard_size, start_date, status, paused_from, paused_until, cancelled_at, last_visit_date, created_by,
      created_at)
    select id,
      (array['servicePlan.weekly','servicePlan.twice-weekly','servicePlan.thrice-weekly'])[k],
      (array['Weekly Swift Service','Twice-Weekly Swift Service','Triple Swift Service'])[k],
      k,
      case k when 1 then array[1 + n % 5] when 2 then array[1 + n % 2, 3 + n % 2] else array[1, 3, 5] end::smallint[],
      1 + n % 3, (array['small','medium','large'])[1 + n % 3],
      ${BUSINESS_TODAY} - ${sql.lit(PAST_DAYS)},
      case n % 20 when 0 then 'paused' when 1 then 'cancelled' else 'active' end,
      case when n % 20 = 0 then ${BUSINESS_TODAY} end, case when n % 20 = 0 then ${BUSINESS_TODAY} + 13 end,
      case when n % 20 = 1 then now() - interval '2 days' end, case when n % 20 = 1 then ${BUSINESS_TODAY} - 2 end,
      ${adminId}, now() - (n || ' seconds')::interval
    from (select id, n, case when n % 10 < 6 then 1 when n % 10 < 9 then 2 else 3 end as k
      from (select id, split_part(split_part(email, '@', 1), 'plan', 2)::int as n from users
        where email like '%@bench.example') c) c`.execute(db);
  await sql`insert into customer_plan_events (plan_id, actor_id, kind, detail, created_at)
    select id, created_by, 'started', catalogue_plan_name, created_at from customer_plans`.execute(db);
  // The plans' visits at 08:00 business time on their weekdays: past ones completed, those ahead
  // scheduled (skipped in a pause), none after a cancelled plan's last visit.
  await sql`insert into services (customer_id, service_type, service_date, status, skip_reason, plan_id, plan_slot,
      created_at)
    select p.customer_id,
      (array['Weekly Service','Twice Weekly Service','Thrice Weekly Service'])[p.visits_per_week],
      (d.day + time '08:00') at time zone 'America/Los_Angeles',
      case when d.day < ${BUSINESS_TODAY} then 'completed'
        when p.status = 'paused' and d.day between p.paused_from and p.paused_until then 'skipped'
        else 'scheduled' end,
      case when d.day >= ${BUSINESS_TODAY} and p.status = 'paused' and d.day between p.paused_from and p.paused_until
        then 'paused' end,
      p.id, d.day, now()
    from customer_plans p
    cross join lateral (select g::date as day from generate_series(${BUSINESS_TODAY} - ${sql.lit(PAST_DAYS)},
      ${BUSINESS_TODAY} + ${sql.lit(HORIZON_DAYS)}, interval '1 day') g) d
    where extract(isodow from d.day)::smallint = any(p.weekdays)
      and (p.status <> 'cancelled' or d.day <= p.last_visit_date)`.execute(db);
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);
  return { ...(await counts(db)), seconds: (Date.now() - started) / 1000 };
}

async function counts(db: Kysely<Database>) {
  const row = await sql<{ users: number; plans: number; visits: number }>`select
    (select count(*) from users)::int as users, (select count(*) from customer_plans)::int as plans,
    (select count(*) from services)::int as visits`.execute(db);
  const admin = await sql<{ id: string }>`select id from users where email = 'admin@bench.example.org'`.execute(db);
  if (!admin.rows[0]) throw new Error("not a plan-pages database: no admin@bench.example.org");
  return { ...row.rows[0], adminId: admin.rows[0].id, seconds: 0 };
}

/** The plans of the plan reads, and whether any scans a big table sequentially. */
async function queryPlans(db: Kysely<Database>, customerId: string, planId: string) {
  const queries: [string, string][] = [
    [
      "the customer's latest plan",
      `select * from customer_plans where customer_id = '${customerId}' order by created_at desc, id desc limit 1`,
    ],
    [
      "the plan's next 8 visits",
      `select id, service_date, status from services where plan_id = '${planId}' and service_date >= now()
        and status in ('scheduled', 'skipped') order by service_date, id limit 8`,
    ],
  ];
  const lines: string[] = [];
  const sequential: string[] = [];
  for (const [name, text] of queries) {
    const plan = (await sql.raw<{ "QUERY PLAN": string }>(`explain ${text}`).execute(db)).rows.map(
      (r) => r["QUERY PLAN"],
    );
    if (plan.some((l) => /Seq Scan on (services|customer_plans|users)\b/.test(l))) sequential.push(name);
    lines.push(`  ${name}:`, ...plan.map((l) => `    ${l}`));
  }
  return { text: lines.join("\n"), sequential };
}

const cookieOf = (headers: Headers) => (headers.get("Set-Cookie") ?? "").split(";")[0];

if (!existsSync(path.join(root, "build/index.js"))) {
  console.log("  no production build (npm run build): plan-pages skipped");
  process.exit(0);
}
const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
const name = REUSE ?? `bench_plan_pages_${SIZE}_${randomBytes(3).toString("hex")}`;
if (!REUSE) await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
const handle = connect({ databaseUrl: url.toString(), poolSize: 4 });
let app: AppServer | undefined;
try {
  await migrateToLatest(handle.db);
  const seeded = REUSE ? await counts(handle.db) : await seed(handle.db, CUSTOMERS);
  console.log(
    `${SIZE}: ${REUSE ? `reusing ${name}:` : "seeded"} ${fmt(seeded.users)} users, ${fmt(seeded.plans)} customer plans, ${fmt(seeded.visits)} visits in ${fmt(seeded.seconds)} s`,
  );
  setDatabaseForTests(handle.db);
  const sample = await sql<{ customer_id: string; id: string }>`select customer_id, id from customer_plans
    where status <> 'cancelled' order by random() limit ${SAMPLE}`.execute(handle.db);
  const customerCookies: string[] = [];
  for (const row of sample.rows) {
    customerCookies.push(cookieOf(await createUserSessionHeaders(new Request("http://localhost/"), row.customer_id)));
  }
  // An admin signed in with password and code: its session passed the second step (decision 024).
  const adminCookie = cookieOf(
    await createUserSessionHeaders(new Request("http://localhost/"), seeded.adminId, { secondStepAt: new Date() }),
  );
  const planText = await queryPlans(handle.db, sample.rows[0].customer_id, sample.rows[0].id);
  console.log(`query plans at ${SIZE}:\n${planText.text}`);

  // The pages, and a control: a signed-in page of the same layout that the plans do not touch
  // (the customer's yard: one query, one form). Its p95 is what this machine gives any page.
  const pages = [
    { label: "/customer-dashboard/plan (Your Plan)", path: () => "/customer-dashboard/plan", admin: false },
    {
      label: "/admin-dashboard/customers/:id",
      path: (customerId: string) => `/admin-dashboard/customers/${customerId}`,
      admin: true,
    },
    { label: "/customer-dashboard with the Your Plan card", path: () => "/customer-dashboard", admin: false },
    { label: "/customer-dashboard/yard (control)", path: () => "/customer-dashboard/yard", admin: false },
  ];
  const mustContain = ["Upcoming visits", "customer since", "Your Plan", "Yard"];
  const targetsOf = (page: (typeof pages)[number]) =>
    sample.rows.map((row, i) => ({
      path: page.path(row.customer_id),
      cookie: page.admin ? adminCookie : customerCookies[i],
    }));

  // In process, through the Remix request handler (loader, React, HTML; no HTTP): this build and,
  // with BENCH_BASELINE_BUILD=<path to an older build/index.js>, that one in turns.
  const builds = [path.join(root, "build/index.js"), ...(BASELINE_BUILD ? [path.resolve(BASELINE_BUILD)] : [])];
  const renders = renderInProcess({
    databaseUrl: url.toString(),
    sessionSecret: SESSION_SECRET,
    builds,
    pages: pages.map((page) => [page.label, targetsOf(page).map((t) => [t.path, t.cookie] as [string, string])]),
    calls: RENDER_CALLS,
    interleave: true,
  });
  const control = renders.at(-1)!.builds;
  for (const render of renders) {
    const [ours, theirs] = render.builds;
    const isControl = render === renders.at(-1);
    const vs = (t: RenderTiming, c: RenderTiming) =>
      `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms, ${fmt(t.p95 / c.p95, 2)}× the control's p95`;
    report({
      figure: `${render.label} in process at ${SIZE}: p50 / p95 (${RENDER_CALLS} calls in turns with the others)${theirs ? "; the baseline build's" : ""}`,
      value: `${isControl ? `${fmt(ours.p50, 2)} / ${fmt(ours.p95, 2)} ms` : vs(ours, control[0])} (${fmt(ours.bytes / 1024, 1)} KB, CPU p50 ${fmt(ours.cpu50, 2)} ms)${theirs ? `; baseline ${isControl ? `${fmt(theirs.p50, 2)} / ${fmt(theirs.p95, 2)} ms` : vs(theirs, control[1])} (${fmt(theirs.bytes / 1024, 1)} KB, CPU p50 ${fmt(theirs.cpu50, 2)} ms)` : ""}`,
      goal: isControl ? "(control)" : `p95 <= ${P95_GOAL_MS} ms`,
      ok: isControl ? null : ours.p95 <= P95_GOAL_MS,
    });
  }

  // Over HTTP: the production server (server.js) as Fly runs it, with the Dockerfile's heap cap
  // and malloc arenas.
  const memory = imageMemoryEnv();
  app = await startAppServer(
    {
      DATABASE_URL: url.toString(),
      SESSION_SECRET,
      SEED_DEV_DATA: "false",
      LOG_LEVEL: "error",
      ...memory,
      // SCHEDULED_WORK_DELAY_SECONDS=0 times the pages while the start's generator and billing run
      // go (decision 099); by default they wait two minutes, after these calls.
      ...(process.env.SCHEDULED_WORK_DELAY_SECONDS
        ? { SCHEDULED_WORK_DELAY_SECONDS: process.env.SCHEDULED_WORK_DELAY_SECONDS }
        : {}),
    },
    { ready: "healthy", stdio: "inherit" },
  );
  const base = app.url;
  const timings = await timeHttpInTurns(
    pages.map((page, p) => ({
      targets: targetsOf(page).map((t) => ({ url: `${base}${t.path}`, cookie: t.cookie })),
      mustContain: mustContain[p],
    })),
    { calls: HTTP_CALLS, warmup: 30 },
  );
  const env = `NODE_OPTIONS="${memory.NODE_OPTIONS ?? ""}"`;
  const controlHttp = timings.at(-1)!;
  for (const [p, page] of pages.entries()) {
    const t = timings[p];
    const isControl = p === pages.length - 1;
    report({
      figure: `${page.label} over HTTP at ${SIZE}: p50 / p95 (one at a time, ${HTTP_CALLS} calls in turns with the others, ${env})`,
      value: `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms${isControl ? "" : `, ${fmt(t.p95 / controlHttp.p95, 2)}× the control's p95`} (${fmt(t.kb, 1)} KB)`,
      goal: isControl ? "(control)" : `p95 <= ~${HTTP_RATIO_GOAL}× the control's`,
      ok: isControl ? null : t.p95 <= HTTP_RATIO_GOAL * controlHttp.p95,
    });
  }
  report({
    figure: `plan reads' query plans at ${SIZE}: no sequential scan of a big table`,
    value: planText.sequential.length ? `Seq Scan in: ${planText.sequential.join("; ")}` : "index scans only",
    goal: "index scans",
    ok: planText.sequential.length === 0,
  });
} finally {
  await app?.stop();
  setDatabaseForTests(undefined);
  await handle.close();
  if (KEEP || REUSE) console.log(`  kept database ${name} (BENCH_PLAN_DATABASE=${name})`);
  else await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  closeHttp();
}
