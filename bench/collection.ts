// The payment collection at scale (issue 34 item 10, docs/decisions/112): seeds on PostgreSQL
// 100,000 customers, each with a card on file and an open $89 invoice due today (one customer in
// 20 has a card that is declined), then runs the collection (`runPaymentCollection`, as
// `npm run billing:collect` and the hourly round do) against the local Stripe stand-in answering
// each call after 20 ms (in a process of its own, bench/_stripe-stand-in-child.ts). Rounds run one
// after the other until nothing is left (a round stops starting charges when its time budget is
// spent). Prints the collection's time beside the 15-minute goal, its longest transaction
// (sampled every 20 ms from pg_stat_activity) beside 1 s, and this process's RSS growth beside
// +64 MiB; and, as the control, the one-at-a-time rate of before, measured for 10 s first.
// Run: npm run bench collection   BENCH_SCALE=10k for 10,000 (the figures then scale by 10).
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the
// database is made for the run and dropped at the end.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { fmt, report } from "./_report";

const LATENCY_MS = Number(process.env.BENCH_STRIPE_LATENCY_MS || 20);
Object.assign(process.env, {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  SEED_DEV_DATA: "false",
  // The stand-in's test keys; STRIPE_API_BASE_URL is set once it listens.
  STRIPE_SECRET_KEY: "sk_test_standin0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_standin0123456789",
  SITE_URL: "https://yards.example.com",
});

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { setDatabaseForTests } = await import("~/utils/db.server");
const { resetEnvCache } = await import("~/utils/env.server");
const { runPaymentCollection, COLLECTION_CONCURRENCY, COLLECTION_BUDGET_MS } =
  await import("~/features/billing/payment-recovery.server");
const { recoveryContext } = await import("~/features/billing/payment-recovery-emails.server");
const { businessToday } = await import("~/features/visits/visit-dates");

const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CUSTOMERS = process.env.BENCH_SCALE === "10k" ? 10_000 : 100_000;
const SIZE = CUSTOMERS === 10_000 ? "10k" : "100k";
const SCALE_TO_100K = 100_000 / CUSTOMERS;
const DECLINE_EVERY = 20;
const ROUND_GOAL_MS = 15 * 60_000;
const TRANSACTION_GOAL_MS = 1_000;
const RSS_GOAL_MIB = 64;
const CONTROL_MS = 10_000;
/** BENCH_POOLED=0: the charges' statements on the job's one connection (as on PGlite), to compare. */
const POOLED = process.env.BENCH_POOLED !== "0";
const NOW = new Date();
const TODAY = businessToday(NOW);
const root = path.resolve(import.meta.dirname, "..");

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;

/** The stand-in in its own process, with `cards` payment methods made; their ids in order. */
async function startStandIn(cards: number) {
  const child = fork(path.join(root, "bench/_stripe-stand-in-child.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      BENCH_CARDS: String(cards),
      BENCH_DECLINE_EVERY: String(DECLINE_EVERY),
      BENCH_STRIPE_LATENCY_MS: String(LATENCY_MS),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<{ url: string; paymentMethods: string[] }>((resolve, reject) => {
    child.once("message", (message: { kind: string; url: string; paymentMethods: string[] }) => resolve(message));
    child.once("exit", (code) => reject(new Error(`the stand-in exited with ${code}`)));
  });
  return {
    ...ready,
    kill: () => child.connected && child.kill(),
    async stop() {
      const stopped = new Promise<{ intents: number; posts: number }>((resolve) =>
        child.once("message", (message: { intents: number; posts: number }) => resolve(message)),
      );
      child.send({ kind: "stop" });
      const counts = await stopped;
      await new Promise((resolve) => child.once("exit", resolve));
      return counts;
    },
  };
}

async function seed(db: Kysely<Database>, customers: number, paymentMethods: string[]) {
  await sql`insert into users (email) select 'collect' || g || '@bench.example' from generate_series(1, ${customers}) g`.execute(
    db,
  );
  // Customer n: "cus_bench<n>" with payment method n (the stand-in declines every 20th customer).
  for (let from = 0; from < customers; from += 10_000) {
    const numbers = Array.from({ length: Math.min(10_000, customers - from) }, (_, i) => from + i + 1);
    await sql`insert into stripe_customers (user_id, stripe_customer_id, payment_method_id, card_brand, card_last4,
        card_exp_month, card_exp_year, card_added_at)
      select u.id, 'cus_bench' || n, pm, 'visa', '4242', 4, 2035, now()
      from unnest(${numbers}::int[], ${numbers.map((n) => paymentMethods[n - 1])}::text[]) as c (n, pm)
      join users u on u.email = 'collect' || n || '@bench.example'`.execute(db);
  }
  await sql`insert into invoices (number, customer_id, period_month, status, issued_on, due_on, total_cents)
    select ${TODAY.slice(0, 4)} || '-' || lpad(split_part(split_part(email, '@', 1), 'collect', 2), 6, '0'), id,
      date_trunc('month', ${TODAY}::date)::date, 'open', ${TODAY}::date, ${TODAY}::date, 8900
    from users where email like 'collect%@bench.example'`.execute(db);
  await sql`analyze`.execute(db);
}

/** The longest open transaction of the bench's database, sampled every 20 ms from another session. */
function transactionSampler(databaseName: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  let longest = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  // What the sessions wait for, by statement (its first words): where the charges queue.
  const waits = new Map<string, number>();
  let samples = 0;
  return {
    async start() {
      await client.connect();
      timer = setInterval(async () => {
        if (busy) return;
        busy = true;
        try {
          const { rows } = await client.query<{ ms: number | null }>(
            `select max(extract(epoch from clock_timestamp() - xact_start) * 1000)::float8 as ms
             from pg_stat_activity where datname = $1 and state <> 'idle' and xact_start is not null
               and pid <> pg_backend_pid()`,
            [databaseName],
          );
          longest = Math.max(longest, rows[0]?.ms ?? 0);
          const waiting = await client.query<{ what: string }>(
            `select left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as what from pg_stat_activity
             where datname = $1 and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
            [databaseName],
          );
          samples += 1;
          for (const { what } of waiting.rows) waits.set(what, (waits.get(what) ?? 0) + 1);
        } finally {
          busy = false;
        }
      }, 20);
    },
    async stop() {
      clearInterval(timer);
      await client.end();
      const top = [...waits].sort((a, b) => b[1] - a[1]).slice(0, 3);
      return { longest, samples, top };
    },
  };
}

const name = `bench_collection_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
// The server's pool size (db/connection.ts): the collection shares it with the requests.
const handle = connect({ databaseUrl: url.toString(), poolSize: 10 });
const standIn = await startStandIn(CUSTOMERS);
try {
  process.env.STRIPE_API_BASE_URL = standIn.url;
  resetEnvCache();
  await migrateToLatest(handle.db);
  setDatabaseForTests(handle.db);
  const seeding = Date.now();
  await seed(handle.db, CUSTOMERS, standIn.paymentMethods);
  standIn.paymentMethods.length = 0;
  console.log(
    `  seeded ${fmt(CUSTOMERS)} customers, cards and open invoices in ${fmt((Date.now() - seeding) / 1000, 1)} s`,
  );
  const context = await recoveryContext();

  // The control: one charge at a time, as before, for 10 s (what it charges is paid and done).
  const control = await runPaymentCollection({ now: NOW, context, concurrency: 1, budgetMs: CONTROL_MS });
  const serialRate = control.charged / (CONTROL_MS / 1000);
  report({
    figure: `before: one charge at a time (${fmt(control.charged)} charged in ${CONTROL_MS / 1000} s)`,
    value: `${fmt(serialRate, 1)} a second: ${fmt(100_000 / serialRate / 60, 1)} min for 100k`,
    goal: "(control)",
    ok: null,
  });

  if (process.env.BENCH_CONTROL_ONLY === "1") process.exit(0);
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = rssMiB();
  let peak = baseline;
  const memory = setInterval(() => (peak = Math.max(peak, rssMiB())), 20);
  const transactions = transactionSampler(name);
  await transactions.start();
  const totals = { charged: 0, succeeded: 0, failed: 0, rounds: 0 };
  const started = performance.now();
  for (;;) {
    // As in production on PostgreSQL (DATABASE_URL set): the charges' statements on the pool.
    const round = await runPaymentCollection({ now: NOW, context, pooled: POOLED });
    totals.rounds += 1;
    totals.charged += round.charged;
    totals.succeeded += round.succeeded;
    totals.failed += round.failed;
    if (!round.budgetSpent) break;
  }
  const ms = performance.now() - started;
  clearInterval(memory);
  const { longest, samples, top } = await transactions.stop();
  peak = Math.max(peak, rssMiB());
  const left = CUSTOMERS - control.charged;
  const { rows: owed } = await sql<{ open: number; payments: number; failures: number }>`select
      (select count(*)::int from invoices where status = 'open') as open,
      (select count(*)::int from payments) as payments,
      (select count(*)::int from invoice_charge_failures) as failures`.execute(handle.db);
  const { intents, posts } = await standIn.stop();

  const scaled = SCALE_TO_100K === 1 ? "" : `; at 100k by the same rate: ${fmt((ms * SCALE_TO_100K) / 60_000, 1)} min`;
  report({
    figure: `collection of ${fmt(left)} invoices at ${SIZE}, ${COLLECTION_CONCURRENCY} at once${POOLED ? "" : " on one connection"}, Stripe stand-in ${LATENCY_MS} ms a call`,
    value: `${fmt(ms / 1000, 1)} s in ${totals.rounds} round(s) of at most ${COLLECTION_BUDGET_MS / 60_000} min (${fmt((left / ms) * 1000, 0)} a second)${scaled}`,
    goal: "<= 900 s at 100k",
    ok: ms * SCALE_TO_100K <= ROUND_GOAL_MS,
  });
  report({
    figure: "what the rounds did",
    value: `charged ${fmt(totals.charged)} (paid ${fmt(totals.succeeded)}, declined ${fmt(totals.failed)}); ${fmt(owed[0].payments)} payments, ${fmt(owed[0].failures)} failures, ${fmt(owed[0].open)} still open; ${fmt(posts)} PaymentIntent requests, ${fmt(intents)} PaymentIntents`,
    goal: "every invoice charged once",
    ok:
      totals.charged === left &&
      posts === CUSTOMERS &&
      intents === CUSTOMERS &&
      owed[0].payments + owed[0].failures === CUSTOMERS,
  });
  report({
    figure: "longest transaction of the collection (pg_stat_activity, every 20 ms)",
    value: `${fmt(longest, 0)} ms`,
    goal: `<= ${TRANSACTION_GOAL_MS} ms`,
    ok: longest <= TRANSACTION_GOAL_MS,
  });
  report({
    figure: `sessions waiting for a row lock, per sample (${fmt(samples)} samples)`,
    value:
      top.length === 0
        ? "none seen"
        : top.map(([what, n]) => `${fmt(n / Math.max(1, samples), 2)} in "${what}"`).join("; "),
    goal: "information",
    ok: null,
  });
  report({
    figure: "RSS growth of the collecting process (peak - before)",
    value: `+${fmt(peak - baseline, 1)} MiB (${fmt(baseline, 0)} to ${fmt(peak, 0)} MiB)`,
    goal: `<= +${RSS_GOAL_MIB} MiB`,
    ok: peak - baseline <= RSS_GOAL_MIB,
  });
} finally {
  standIn.kill();
  setDatabaseForTests(undefined);
  await handle.close();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
