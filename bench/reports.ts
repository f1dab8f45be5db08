// The Reports tab at scale (issue 38, docs/decisions/130): seeds BENCH_CUSTOMERS customers
// (default 10,000; the scale is 100,000) on PostgreSQL, each with a plan started in the
// last 24 months (10% cancelled with a reason, every fifth with a plan change), 12 invoices each
// (85% paid with their payment, the rest open) and 20 visits each (completed, skipped, missed);
// then times the nightly refresh (information: it runs in the background) and each report's
// table loader and both pages' loaders, in-process, one call at a time (goal: p95 <= 200 ms).
// Run: npx tsx bench/reports.ts   BENCH_CUSTOMERS=100000 for the scale.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the
// database (reports_bench_<hex>) is made for the run and dropped at the end.
import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { fmt, report } from "./_report";

Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false" });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { setDatabaseForTests } = await import("~/utils/db.server");
const { refreshReports } = await import("~/features/reports/report-refresh.server");
const { loadReportTable } = await import("~/features/reports/report-tables.server");
const { loadMoneyReports, loadOperationsReports } = await import("~/features/reports/report-pages.server");
const { REPORT_TABLE_IDS } = await import("~/features/reports/report-definitions");
const { businessToday } = await import("~/features/visits/visit-dates");
const { addMonths } = await import("~/features/billing/billing-rules");

const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS || 10_000);
const CALLS = Number(process.env.BENCH_CALLS || 100);
const P95_GOAL_MS = 200;

async function seed(db: Kysely<Database>, customers: number) {
  await sql`insert into users (email) select 'rep' || g || '@bench.example' from generate_series(1, ${customers}) g`.execute(
    db,
  );
  // A plan each, started over the last 24 months; every tenth cancelled since, with a reason.
  await sql`insert into customer_plans (customer_id, catalogue_plan_id, catalogue_plan_name, visits_per_week, weekdays,
      dog_count, yard_size, start_date, status, cancelled_at, last_visit_date, cancel_reason, price_cents, add_on_cents)
    select id, 'servicePlan.weekly', 'Weekly Swift Service', 1, array[1 + n % 5]::smallint[], 1, 'medium',
      current_date - (n % 730), case when n % 10 = 0 then 'cancelled' else 'active' end,
      case when n % 10 = 0 then now() - ((n % 700) / 2 || ' days')::interval end,
      case when n % 10 = 0 then (now() - ((n % 700) / 2 || ' days')::interval)::date end,
      case when n % 10 = 0 then (array['moved','price','service','no_longer_needed','other'])[1 + n % 5] end,
      (array[8900, 15900, 22500])[1 + n % 3], (array[0, 1500, 2500])[1 + n % 3]
    from (select id, split_part(split_part(email, '@', 1), 'rep', 2)::int as n from users
      where email like '%@bench.example') c`.execute(db);
  await sql`insert into plan_changes (plan_id, from_day, old_weekdays, old_monthly_cents)
    select id, start_date + 30, weekdays, price_cents - 1000 from customer_plans where hashtext(id::text) % 5 = 0`.execute(
    db,
  );
  // 12 invoices a customer, one a month; 85% paid (with their payment), the rest open.
  await sql`insert into invoices (number, customer_id, plan_id, period_month, status, issued_on, due_on, total_cents,
      paid_cents, paid_at)
    select '2026-' || lpad((row_number() over ())::text, 8, '0'), customer_id, id,
      (date_trunc('month', current_date) - (m || ' months')::interval)::date,
      case when (hashtext(id::text) + m) % 20 < 17 then 'paid' else 'open' end,
      (date_trunc('month', current_date) - (m || ' months')::interval)::date,
      (date_trunc('month', current_date) - (m || ' months')::interval)::date + 10,
      price_cents + add_on_cents,
      case when (hashtext(id::text) + m) % 20 < 17 then price_cents + add_on_cents else 0 end,
      case when (hashtext(id::text) + m) % 20 < 17 then now() end
    from customer_plans, generate_series(0, 11) m`.execute(db);
  await sql`insert into payments (invoice_id, method, amount_cents, paid_on, idempotency_key)
    select id, 'card_in_person', total_cents, issued_on + 3, 'bench-' || id from invoices where status = 'paid'`.execute(
    db,
  );
  // 20 visits a customer over the last 20 weeks.
  await sql`insert into services (customer_id, service_type, service_date, status, skip_reason, missed_reason, completed_at)
    select customer_id, 'Weekly Service', now() - (w * 7 || ' days')::interval,
      s, case when s = 'skipped' then 'customer' end, case when s = 'missed' then 'locked_gate' end,
      case when s = 'completed' then now() - (w * 7 || ' days')::interval end
    from (select customer_id, w,
        case (hashtext(customer_id::text) + w) % 20 when 0 then 'skipped' when 1 then 'missed' else 'completed' end as s
      from customer_plans, generate_series(1, 20) w) v`.execute(db);
  await sql`analyze`.execute(db);
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: at(50), p95: at(95) };
}

async function time(calls: number, work: () => Promise<unknown>) {
  await work();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return percentiles(samples);
}

const name = `reports_bench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
const handle = connect({ databaseUrl: url.toString(), poolSize: 4 });
try {
  await migrateToLatest(handle.db);
  setDatabaseForTests(handle.db);
  const seeding = Date.now();
  await seed(handle.db, CUSTOMERS);
  const counts = await sql<{ invoices: number; visits: number }>`
    select (select count(*)::int from invoices) as invoices, (select count(*)::int from services) as visits`.execute(
    handle.db,
  );
  const size = `${fmt(CUSTOMERS)} customers / ${fmt(counts.rows[0].invoices)} invoices / ${fmt(counts.rows[0].visits)} visits`;
  console.log(`  seeded ${size} in ${fmt((Date.now() - seeding) / 1000, 1)} s`);

  const refreshStarted = performance.now();
  const refreshed = await refreshReports(handle.db);
  report({
    figure: `nightly reports refresh at ${size} (${refreshed.months} months)`,
    value: `${fmt((performance.now() - refreshStarted) / 1000, 1)} s`,
    goal: "information (a background job)",
    ok: null,
  });

  const today = businessToday();
  // The last 24 months: twice the default range.
  const range = { from: addMonths(`${today.slice(0, 7)}-01`, -23), to: `${today.slice(0, 7)}-01` };
  for (const id of REPORT_TABLE_IDS) {
    const t = await time(CALLS, () => loadReportTable(handle.db, id, range, today));
    report({
      figure: `report "${id}" p50 / p95 at ${fmt(CUSTOMERS)} customers, ${fmt(CALLS)} calls`,
      value: `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms`,
      goal: `p95 <= ${P95_GOAL_MS} ms`,
      ok: t.p95 <= P95_GOAL_MS,
    });
  }
  const query = new URL(
    `http://bench/admin-dashboard/reports?from=${range.from.slice(0, 7)}&to=${range.to.slice(0, 7)}`,
  );
  const owner = { staffRole: "owner" } as Parameters<typeof loadOperationsReports>[1];
  for (const [label, load] of [
    ["customers and visits page loader", () => loadOperationsReports(query, owner)],
    ["money page loader", () => loadMoneyReports(query)],
  ] as const) {
    const t = await time(CALLS, load);
    report({
      figure: `${label} p50 / p95 at ${fmt(CUSTOMERS)} customers`,
      value: `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms`,
      goal: `p95 <= ${P95_GOAL_MS} ms`,
      ok: t.p95 <= P95_GOAL_MS,
    });
  }
} finally {
  setDatabaseForTests(undefined);
  await handle.close();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
