// E-mail throughput of the outbox (issue 35 item 4, decision 109): queues N invoice-sized e-mails
// (about 1.5 KB of text and HTML, bulk, as the billing run queues them) and times the outbox
// workers sending them all to a local SMTP sink in its own process, one pass after another as
// the in-process worker does: first one at a time (concurrency 1: what the worker did before,
// without the connection pool), then with OUTBOX_CONCURRENCY lanes over the pooled transport.
// Prints the rate and the projected time for a month's 95,000 invoice e-mails beside the goal:
// within an hour on one machine. Twice: with the sink answering at once (loopback: what the
// machine itself can do), and with each message's answer held BENCH_SMTP_DELAY_MS (default 100 ms,
// about a provider's round trip and queueing: where one at a time takes hours).
// Run: npx tsx bench/outbox-throughput.ts   (or npm run bench outbox)
// BENCH_EMAILS (default 2,000) e-mails a run; BENCH_CONCURRENCY (default 5) lanes;
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server:
// a database is made for the run and dropped at the end.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { fmt, report } from "./_report";

Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false" });

const EMAILS = Number(process.env.BENCH_EMAILS || 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 5);
const DELAY_MS = Number(process.env.BENCH_SMTP_DELAY_MS || 100);
const MONTH = 95_000;
const GOAL_MS = 60 * 60_000;
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

// The sink, in its own process.
const dir = path.dirname(new URL(import.meta.url).pathname);
const sink = spawn(process.execPath, [path.join(dir, "_smtp-sink.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: sink.stdout! });
const nextLine = () => new Promise<string>((resolve) => lines.once("line", resolve));
const port = Number((await nextLine()).split(" ")[1]);
async function sinkCounts(command = "?") {
  const answer = nextLine();
  sink.stdin!.write(`${command}\n`);
  const [messages, connections] = (await answer).split(" ").map(Number);
  return { messages, connections };
}

process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
process.env.MAIL_FROM = "Bench <bench@example.com>";
process.env.OUTBOX_CONCURRENCY = String(CONCURRENCY);

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
const { setDatabaseForTests } = await import("~/utils/db.server");
const { resetEnvCache } = await import("~/utils/env.server");
const { closeMailTransport } = await import("~/utils/mailer.server");
const { deliverDueEmails, enqueueEmails } = await import("~/features/outbox/outbox.server");
resetEnvCache();

const name = `bench_outbox_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
// The app's own pool size on one machine.
const handle = connect({ databaseUrl: url.toString(), poolSize: 10 });

const paragraph =
  "Invoice SS-2026-000123 for March 2026. Weekly Swift Service, 4 visits: $89.00. Amount due: $89.00, due Monday, March 1. We will charge Visa ending 4242 on Monday, March 1. You don't need to do anything. ";
async function queue(run: string, n: number) {
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
      kind: "invoice_issued" as const,
      to: `customer${i + j}@bench.example`,
      subject: `Your invoice SS-2026-${String(i + j).padStart(6, "0")}`,
      text: paragraph.repeat(3),
      html: `<p>${paragraph.repeat(3)}</p>`,
      dedupeKey: `bench:${run}:${i + j}`,
    }));
    await enqueueEmails(handle.db, batch);
  }
}

async function sendAll(concurrency: number) {
  const before = await sinkCounts();
  const started = performance.now();
  let sent = 0;
  let failed = 0;
  for (;;) {
    // The worker's pass: up to 200 messages, then it looks again.
    const pass = await deliverDueEmails({ limit: 200, concurrency });
    sent += pass.sent;
    failed += pass.failed;
    if (pass.sent + pass.failed === 0) break;
  }
  const ms = performance.now() - started;
  const after = await sinkCounts();
  return {
    sent,
    failed,
    ms,
    received: after.messages - before.messages,
    connections: after.connections - before.connections,
  };
}

try {
  await migrateToLatest(handle.db);
  setDatabaseForTests(handle.db);
  console.log(`  e-mails to a local SMTP sink (port ${port}) in its own process, PostgreSQL ${name}`);
  // With the delay, one at a time sends only about 1000 / DELAY_MS a second: fewer e-mails, so
  // the run stays short.
  const slow = Math.max(50, Math.min(EMAILS, Math.round(20_000 / Math.max(1, DELAY_MS))));
  const runs: { label: string; concurrency: number; delayMs: number; emails: number }[] = [
    { label: "one at a time, sink at once", concurrency: 1, delayMs: 0, emails: EMAILS },
    { label: `${CONCURRENCY} at a time, sink at once`, concurrency: CONCURRENCY, delayMs: 0, emails: EMAILS },
    { label: `one at a time, sink ${DELAY_MS} ms`, concurrency: 1, delayMs: DELAY_MS, emails: slow },
    {
      label: `${CONCURRENCY} at a time, sink ${DELAY_MS} ms`,
      concurrency: CONCURRENCY,
      delayMs: DELAY_MS,
      emails: slow * 2,
    },
  ];
  for (const run of runs) {
    await sinkCounts(`delay ${run.delayMs}`);
    await queue(run.label, run.emails);
    const result = await sendAll(run.concurrency);
    const perSecond = (result.sent / result.ms) * 1000;
    const projectedMs = (MONTH / perSecond) * 1000;
    console.log(
      `  ${run.label}: ${fmt(result.sent)} sent, ${result.failed} failed, ${fmt(result.received)} received by the sink over ${result.connections} new connections in ${fmt(result.ms / 1000, 1)} s`,
    );
    report({
      figure: `outbox e-mails a second to a local SMTP sink, ${run.label}`,
      value: `${fmt(perSecond, 1)}/s`,
      goal: `>= ${fmt(MONTH / (GOAL_MS / 1000), 1)}/s`,
      // One at a time is the comparison (the worker before decision 109): information only.
      ok: run.concurrency === 1 ? null : perSecond >= MONTH / (GOAL_MS / 1000),
    });
    report({
      figure: `a month's ${fmt(MONTH)} invoice e-mails, projected, ${run.label}`,
      value: `${fmt(projectedMs / 60_000, 1)} min`,
      goal: "<= 60 min",
      ok: run.concurrency === 1 ? null : projectedMs <= GOAL_MS,
    });
    if (result.received !== result.sent || result.failed > 0) {
      throw new Error(`the sink received ${result.received} of ${result.sent} sent (${result.failed} failed)`);
    }
  }
} finally {
  closeMailTransport();
  setDatabaseForTests(undefined);
  await handle.close();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  sink.stdin!.end();
}
