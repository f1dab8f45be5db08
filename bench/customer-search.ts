// The admin's customer search at 100,000 customers (issue 35 item 6: "about 2 s for a common
// prefix deep in the e-mail order"): seeds users and profiles on PostgreSQL as bench/scale.ts does
// ('customer<n>@bench.example', "Avery Stone <n>"), then times `searchCustomers` (the Customers
// list and the Create Service picker, docs/decisions/064 and 110), one call at a time, for each
// kind of term, and prints each p95 beside the 20 ms goal, with the query plan of the slowest.
// Run: npm run bench customer-search   BENCH_SCALE=10k for 10,000 customers.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the
// database is made for the run and dropped at the end (BENCH_SEARCH_KEEP=1 keeps it and prints
// its name; BENCH_SEARCH_DATABASE=<name> measures a kept one again without seeding).
import { randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { fmt, report } from "./_report";

Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false" });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { setDatabaseForTests } = await import("~/utils/db.server");
const { searchCustomers } = await import("~/models/customer.server");

const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CUSTOMERS = process.env.BENCH_SCALE === "10k" ? 10_000 : 100_000;
const CALLS = Number(process.env.BENCH_SEARCH_CALLS || 40);
const P95_GOAL_MS = 20;
const KEEP = process.env.BENCH_SEARCH_KEEP === "1";
const REUSE = process.env.BENCH_SEARCH_DATABASE;

/** Each kind of term the admin types, with why it is a case of its own. */
const TERMS: [string, string][] = [
  ["rivera 123", "rare (a few matches: the matching ids)"],
  ["example", "everyone (the e-mail order, filtered)"],
  ["customer1", "common, at the front of the e-mail order"],
  ["customer99", "common prefix deep in the e-mail order (issue 35)"],
  ["customer987", "a prefix with 111 matches deep in the order"],
  ["walsh", "a common surname (names, not e-mails)"],
  ["walsh 9", "a common name prefix deep in the order"],
  ["zz", "two letters that match nobody"],
  ["r", "one letter"],
];

async function seed(db: Kysely<Database>, customers: number) {
  const started = Date.now();
  await sql`insert into users (email, created_at)
    select 'customer' || g || '@bench.example', now() - (g || ' minutes')::interval
    from generate_series(1, ${customers}) g`.execute(db);
  await sql`insert into profiles (user_id, full_name)
    select id, (array['Avery','Blake','Casey','Drew','Emery','Finley','Gray','Harper'])[1 + n % 8] || ' ' ||
      (array['Stone','Rivera','Nguyen','Okafor','Larsen','Patel','Kim','Moreau','Silva','Walsh'])[1 + (n / 8) % 10] || ' ' || n
    from (select id, split_part(split_part(email, '@', 1), 'customer', 2)::int as n from users) c`.execute(db);
  const admin = await sql<{
    id: string;
  }>`insert into users (email) values ('admin@bench.example.org') returning id`.execute(db);
  await sql`insert into user_roles (user_id, role) values (${admin.rows[0].id}, 'owner')`.execute(db);
  await sql`vacuum analyze`.execute(db);
  return (Date.now() - started) / 1000;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const name = REUSE ?? `bench_search_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
if (!REUSE) await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
const handle = connect({ databaseUrl: url.toString(), poolSize: 2 });
try {
  const db = handle.db;
  await migrateToLatest(db);
  if (!REUSE) {
    const seconds = await seed(db, CUSTOMERS);
    console.log(`  seeded ${fmt(CUSTOMERS)} customers with profiles in ${seconds.toFixed(1)} s`);
  }
  setDatabaseForTests(db);
  const size = CUSTOMERS === 10_000 ? "10k" : "100k";
  let slowest = { term: "", p95: 0 };
  for (const [term, why] of TERMS) {
    // A first call warms the cache and the plan; the figure is the calls after it.
    const first = await searchCustomers({ q: term, limit: 26 });
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await searchCustomers({ q: term, limit: 26 });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    if (p95 > slowest.p95) slowest = { term, p95 };
    report({
      figure: `customer search '${term}' at ${size}, p95 (${why}; ${first.length} on the page)`,
      value: `${fmt(p95, 1)} ms (median ${fmt(percentile(times, 50), 1)} ms)`,
      goal: `<= ${P95_GOAL_MS} ms`,
      ok: p95 <= P95_GOAL_MS,
    });
  }
  // The plans, so that a regression names its cause (a walk of the whole e-mail order).
  const pattern = `%${slowest.term}%`;
  for (const [label, query] of [
    [
      "the matching ids, counted up to the cap",
      sql`explain (analyze, buffers, costs off) select id from users where lower(email) like ${pattern}
        union all select user_id from profiles where lower(full_name) like ${pattern} limit 20001`,
    ],
  ] as const) {
    const plan = await query.execute(db);
    console.log(`\n  plan, '${slowest.term}' (${label}):`);
    for (const row of plan.rows as { "QUERY PLAN": string }[]) console.log(`    ${row["QUERY PLAN"]}`);
  }
} finally {
  setDatabaseForTests(undefined);
  await handle.close();
  if (KEEP || REUSE) console.log(`  database kept: ${name} (BENCH_SEARCH_DATABASE=${name})`);
  else await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
