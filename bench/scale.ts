// The portal at scale, on PostgreSQL: seeds customers, visits, media and bookings with
// generate_series at 10k customers and at full size (100,000 customers, 2,000,000 visits,
// 4,000,000 media rows, 500,000 bookings), then times the customer dashboard's loader (signed
// in, in this process, against that database) and prints the plans of its queries.
// Run: npm run bench scale   BENCH_SCALE=10k for the small size only (full seeding takes minutes).
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server.
import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { fmt, report } from "./_report";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false", SESSION_SECRET });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { setDatabaseForTests } = await import("~/utils/db.server");
const { createUserSessionHeaders } = await import("~/utils/session.server");
const { loader } = await import("~/routes/customer-dashboard");

const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const SIZES = [
  { name: "10k", customers: 10_000 },
  { name: "full", customers: 100_000 },
].filter((size) => (process.env.BENCH_SCALE ?? "full") === "full" || size.name === process.env.BENCH_SCALE);
// Per customer, as in the issue: 20 visits, 40 media rows (a before and an after), 5 bookings.
const VISITS_PER_CUSTOMER = 20;
const MEDIA_PER_VISIT = 2;
const BOOKINGS_PER_CUSTOMER = 5;
const SAMPLE_CUSTOMERS = 50;
const CALLS = 600;
const P95_GOAL_MS = 20;
const GROWTH_GOAL = 1.5;
const BIG_TABLES = ["users", "services", "service_images", "bookings", "sessions"];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function seed(db: Kysely<Database>, customers: number) {
  const started = Date.now();
  const visits = customers * VISITS_PER_CUSTOMER;
  // Customers c1..cN; visit g belongs to customer 1 + g % N, media m to visit 1 + m / 2.
  await sql`insert into users (email, created_at)
    select 'customer' || g || '@bench.example', now() - (g || ' minutes')::interval from generate_series(1, ${customers}) g`.execute(
    db,
  );
  await sql`insert into profiles (user_id, full_name) select id, 'Customer ' || split_part(email, '@', 1) from users where email like '%@bench.example'`.execute(
    db,
  );
  await sql`create temporary table bench_customers as
    select id, row_number() over (order by created_at desc, id) as n from users where email like '%@bench.example'`.execute(
    db,
  );
  await sql`create index on bench_customers (n)`.execute(db);
  await sql`insert into services (customer_id, service_type, service_date, status, created_at)
    select c.id, 'Weekly Service', now() - ((g / ${customers}) * 7 || ' days')::interval + (g % 600 || ' seconds')::interval,
      case when g % 10 = 0 then 'scheduled' else 'completed' end, now()
    from generate_series(0, ${visits - 1}) g join bench_customers c on c.n = 1 + g % ${customers}`.execute(db);
  await sql`create temporary table bench_visits as select id, row_number() over (order by id) as n from services`.execute(
    db,
  );
  await sql`create index on bench_visits (n)`.execute(db);
  await sql`insert into service_images (service_id, image_url, image_type, content_type, size_bytes, created_at)
    select v.id, 'bench/' || m || '.jpg', case when m % 2 = 0 then 'before' else 'after' end, 'image/jpeg', 200000,
      now() - (m || ' seconds')::interval
    from generate_series(0, ${visits * MEDIA_PER_VISIT - 1}) m join bench_visits v on v.n = 1 + m / ${MEDIA_PER_VISIT}`.execute(
    db,
  );
  await sql`insert into bookings (customer_id, service_type, booking_date, status, source)
    select c.id, 'Weekly Service', now() + ((g / ${customers}) || ' days')::interval, 'confirmed', 'calendar'
    from generate_series(0, ${customers * BOOKINGS_PER_CUSTOMER - 1}) g join bench_customers c on c.n = 1 + g % ${customers}`.execute(
    db,
  );
  await sql`analyze`.execute(db);
  const counts = await sql<{ users: number; services: number; media: number; bookings: number }>`select
    (select count(*) from users)::int as users, (select count(*) from services)::int as services,
    (select count(*) from service_images)::int as media, (select count(*) from bookings)::int as bookings`.execute(db);
  return { ...counts.rows[0], seconds: (Date.now() - started) / 1000 };
}

/** The plans of the dashboard's queries for one customer, and whether any scans a big table sequentially. */
async function plans(db: Kysely<Database>, customerId: string) {
  const queries: [string, string, unknown[]][] = [
    ["services", "select * from services where customer_id = $1 order by service_date desc, id limit 5", [customerId]],
    ["bookings", "select * from bookings where customer_id = $1 order by booking_date desc, id limit 5", [customerId]],
    [
      "media",
      "select * from service_images where service_id in (select id from services where customer_id = $1 order by service_date desc, id limit 5) order by created_at desc, id desc limit 4",
      [customerId],
    ],
    [
      "user",
      "select users.id, email, full_name from users left join profiles on profiles.user_id = users.id where users.id = $1",
      [customerId],
    ],
  ];
  const lines: string[] = [];
  let sequential = false;
  for (const [name, text, params] of queries) {
    const result = await sql
      .raw<{ "QUERY PLAN": string }>(`explain ${text.replace(/\$(\d)/g, (_, i) => literal(params[Number(i) - 1]))}`)
      .execute(db);
    const plan = result.rows.map((r) => r["QUERY PLAN"]);
    if (plan.some((l) => BIG_TABLES.some((t) => new RegExp(`Seq Scan on ${t}\\b`).test(l)))) sequential = true;
    lines.push(`  ${name}:`, ...plan.map((l) => `    ${l}`));
  }
  return { text: lines.join("\n"), sequential };
}

function literal(value: unknown): string {
  return `'${String(value).replace(/'/g, "''")}'`;
}

async function measure(size: { name: string; customers: number }) {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const name = `bench_scale_${size.name}_${randomBytes(3).toString("hex")}`;
  await admin.query(`create database "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = connect({ databaseUrl: url.toString(), poolSize: 10 });
  try {
    await migrateToLatest(handle.db);
    const seeded = await seed(handle.db, size.customers);
    console.log(
      `\n${size.name}: seeded ${fmt(seeded.users)} users, ${fmt(seeded.services)} visits, ${fmt(seeded.media)} media, ${fmt(seeded.bookings)} bookings in ${fmt(seeded.seconds)} s`,
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
    const call = async (i: number) => {
      const request = new Request("http://localhost/customer-dashboard", {
        headers: { Cookie: cookies[i % cookies.length] },
      });
      const started = performance.now();
      const response = (await loader({ request, params: {}, context: {} })) as Response;
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`dashboard answered ${response.status}`);
      const data = (await response.json()) as { services: unknown[]; visits: unknown[] };
      if (data.services.length !== 5) throw new Error("expected 5 visits on the dashboard");
      return ms;
    };
    for (let i = 0; i < 50; i++) await call(i); // warm-up: connections, plans, JIT
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) times.push(await call(i));
    times.sort((a, b) => a - b);
    const plan = await plans(handle.db, sample.rows[0].id);
    console.log(`query plans at ${size.name}:\n${plan.text}`);
    return { p50: percentile(times, 50), p95: percentile(times, 95), sequential: plan.sequential };
  } finally {
    setDatabaseForTests(undefined);
    await handle.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const results = new Map<string, { p50: number; p95: number; sequential: boolean }>();
for (const size of SIZES) results.set(size.name, await measure(size));
const small = results.get("10k");
for (const [name, r] of results) {
  report({
    figure: `customer dashboard loader p50 / p95 at ${name} customers (${CALLS} calls, one at a time)`,
    value: `${fmt(r.p50, 2)} / ${fmt(r.p95, 2)} ms`,
    goal: `p95 <= ${P95_GOAL_MS} ms`,
    ok: r.p95 <= P95_GOAL_MS,
  });
  report({
    figure: `customer dashboard query plans at ${name}: no sequential scan of a big table`,
    value: r.sequential ? "a Seq Scan" : "index scans only",
    goal: "index scans",
    ok: !r.sequential,
  });
}
const full = results.get("full");
if (small && full) {
  const growth = full.p95 / small.p95;
  report({
    figure: "customer dashboard p95, full size vs 10k",
    value: `${fmt(growth, 2)}x`,
    goal: `<= ${GROWTH_GOAL}x`,
    ok: growth <= GROWTH_GOAL,
  });
}
