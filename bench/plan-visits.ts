// The plan visit generator at scale (issue 25 item 8, docs/decisions/091), on PostgreSQL: seeds
// 100,000 customers with active plans (90% weekly, 7% twice weekly, 3% thrice weekly, about 470,000
// visits over the 28-day horizon; bulk SQL),
// then runs the generator twice, each time in a child process of its own started as the
// production image runs the server (the Dockerfile's NODE_OPTIONS heap cap and MALLOC_ARENA_MAX),
// sampling that process's resident set size (VmRSS) every 20 ms from here:
//  - first run: time (goal <= 60 s) and the RSS growth over the warmed-up process (goal <= 64 MiB);
//  - second run: inserts nothing (goal 0), and its time.
// Run: npm run bench -- plan-visits   BENCH_SCALE=10k for 10,000 customers. BENCH_DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the bench's database is
// dropped at the end unless BENCH_PLANS_KEEP=1.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { connect } from "../db/connection";
import { migrateToLatest } from "../db/migrator";
import { imageMemoryEnv, rssMiB } from "../tests/helpers/app-server";
import { fmt, report } from "./_report";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CUSTOMERS = process.env.BENCH_SCALE === "10k" ? 10_000 : 100_000;
const SIZE = CUSTOMERS === 10_000 ? "10k" : "100k";
const TIME_GOAL_S = 60;
const RSS_GOAL_MIB = 64;
const KEEP = process.env.BENCH_PLANS_KEEP === "1";

type Counts = { ran: boolean; plans: number; inserted: number; moved: number; cancelled: number };
type Run = { result: Counts; seconds: number; baseline: number; peak: number; after: number };

async function seed(db: ReturnType<typeof connect>["db"], customers: number) {
  const started = Date.now();
  await sql`insert into users (email, email_verified_at)
    select 'plan-customer' || g || '@bench.example', now() from generate_series(1, ${customers}) g`.execute(db);
  // Customer n: weekly unless n % 100 is 90-96 (twice weekly) or 97-99 (thrice weekly); weekdays spread.
  await sql`insert into customer_plans (customer_id, catalogue_plan_id, catalogue_plan_name, visits_per_week, weekdays,
      dog_count, yard_size, start_date, created_at)
    select c.id, p.catalogue_id, p.name, cardinality(p.weekdays), p.weekdays, 1 + c.n % 3,
      (array['small','medium','large'])[1 + c.n % 3], current_date - 30, now()
    from (select id, row_number() over (order by id) as n from users where email like '%@bench.example') c
    cross join lateral (select
      case when c.n % 100 < 90 then 'weekly-swift-service' when c.n % 100 < 97 then 'twice-weekly-swift-service'
        else 'thrice-weekly-swift-service' end as catalogue_id,
      case when c.n % 100 < 90 then 'Weekly Swift Service' when c.n % 100 < 97 then 'Twice Weekly Swift Service'
        else 'Thrice Weekly Swift Service' end as name,
      case when c.n % 100 < 90 then array[1 + c.n % 5]
        when c.n % 100 < 97 then (case when c.n % 2 = 0 then array[1, 4] else array[2, 5] end)
        else array[1, 3, 5] end::smallint[] as weekdays) p`.execute(db);
  await sql`vacuum analyze`.execute(db);
  await sql`checkpoint`.execute(db);
  return (Date.now() - started) / 1000;
}

/** One generator run in a child process shaped like the production server; its RSS sampled from here. */
function runGenerator(databaseUrl: string): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-plan-visits-"));
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", path.join(root, "bench/_plan-visits-child.ts")],
    {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        ALLOW_EMBEDDED_IN_PRODUCTION: "true",
        NODE_NO_WARNINGS: "1",
        SITE_URL: "http://localhost",
        SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SEED_DEV_DATA: "false",
        LOG_LEVEL: "warn",
        ...imageMemoryEnv(),
      },
    },
  );
  return new Promise<Run>((resolve, reject) => {
    let baseline = 0;
    let peak = 0;
    let sampler: NodeJS.Timeout | undefined;
    let started = 0;
    let run: Run | undefined;
    child.on("message", (message: { kind: string; rss: number; result?: Counts; ms?: number }) => {
      if (message.kind === "ready") {
        baseline = rssMiB(child.pid!) || message.rss;
        peak = baseline;
        sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid!) || 0)), 20);
        started = performance.now();
        child.send("go");
      } else if (message.kind === "done") {
        clearInterval(sampler);
        const after = rssMiB(child.pid!) || message.rss;
        peak = Math.max(peak, after);
        const seconds = (message.ms ?? performance.now() - started) / 1000;
        run = { result: message.result!, seconds, baseline, peak, after };
      }
    });
    // Resolved once the process has closed its connections and exited.
    child.on("exit", (code) => {
      clearInterval(sampler);
      rmSync(dataDir, { recursive: true, force: true });
      if (code === 0 && run) resolve(run);
      else reject(new Error(`the generating process exited with ${code}`));
    });
  });
}

const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
const name = `bench_plan_visits_${SIZE}_${randomBytes(3).toString("hex")}`;
await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
const handle = connect({ databaseUrl: url.toString(), poolSize: 2 });
try {
  await migrateToLatest(handle.db);
  const seeded = await seed(handle.db, CUSTOMERS);
  console.log(`seeded ${fmt(CUSTOMERS)} customers with active plans in ${fmt(seeded, 1)} s (database ${name})`);
  const memory = imageMemoryEnv();
  console.log(
    `generating process: NODE_OPTIONS="${memory.NODE_OPTIONS ?? ""}" MALLOC_ARENA_MAX=${memory.MALLOC_ARENA_MAX ?? ""}`,
  );

  const first = await runGenerator(url.toString());
  const stored = Number(
    (await sql<{ n: number }>`select count(*)::int as n from services where plan_id is not null`.execute(handle.db))
      .rows[0].n,
  );
  const second = await runGenerator(url.toString());
  const mib = (n: number) => `${fmt(n, 1)} MiB`;
  console.log(
    `first run: ${JSON.stringify(first.result)}, RSS ${mib(first.baseline)} -> peak ${mib(first.peak)}, after ${mib(first.after)}`,
  );
  console.log(
    `second run: ${JSON.stringify(second.result)}, RSS ${mib(second.baseline)} -> peak ${mib(second.peak)}, after ${mib(second.after)}`,
  );

  report({
    figure: `plan visits generated for ${SIZE} active plans, first run (visits stored)`,
    value: `${fmt(first.seconds, 1)} s for ${fmt(first.result.inserted)} visits (${fmt(stored)} stored, ${fmt(first.result.inserted / first.seconds)} a second)`,
    goal: `<= ${TIME_GOAL_S} s`,
    ok: first.result.ran && first.seconds <= TIME_GOAL_S && stored === first.result.inserted,
  });
  report({
    figure: `generating process RSS growth, first run at ${SIZE} (peak over the warmed-up process)`,
    value: `${mib(first.peak - first.baseline)} (${mib(first.baseline)} -> ${mib(first.peak)})`,
    goal: `<= ${RSS_GOAL_MIB} MiB`,
    ok: first.peak - first.baseline <= RSS_GOAL_MIB,
  });
  report({
    figure: `second run at ${SIZE}: visits inserted`,
    value: `${fmt(second.result.inserted)} in ${fmt(second.seconds, 1)} s (${fmt(second.result.plans)} plans read)`,
    goal: "0",
    ok: second.result.ran && second.result.inserted === 0,
  });
  report({
    figure: `generating process RSS growth, second run at ${SIZE}`,
    value: mib(second.peak - second.baseline),
    goal: `<= ${RSS_GOAL_MIB} MiB`,
    ok: second.peak - second.baseline <= RSS_GOAL_MIB,
  });
} finally {
  await handle.close();
  if (KEEP) console.log(`kept database ${name}`);
  else await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
