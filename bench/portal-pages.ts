// Every portal page on the machine it is deployed on (issue 35 item 7): the production server
// with the Dockerfile's memory settings (NODE_OPTIONS heap cap, MALLOC_ARENA_MAX) inside a 256 MiB
// memory cgroup, as one Fly machine, on PostgreSQL seeded at 10k and at 100k customers
// (bench/_seed-portal.ts, then this month billed by the real billing run and a third of the
// invoices paid), and
//  1. 29 portal pages (the customer's and the admin's), each timed one request at a time over
//     HTTP: p50 / p95 beside the goal (p95 <= 20 ms);
//  2. the customer dashboard while an admin keeps loading the heaviest page (Today): p95 <= 25 ms;
//  3. the cgroup's peak memory and how often its limit was hit;
//  4. where the server's CPU went while it served those pages (a second server started with
//     `--cpu-prof`, every page 40 times): self time by part (the garbage collector, React's server
//     render, the PostgreSQL driver, the app's own code, ...), bench/_cpu-profile-summary.ts;
//  5. the garbage a request leaves on a few pages (a third server with bench/_heap-sampler.mjs:
//     V8's sampling heap profiler counting freed objects too), by part (decision 122).
// Run: npm run build && npm run bench portal-pages
// BENCH_SCALE=10k or 100k for one size (both by default). BENCH_HTTP_CALLS (default 200) per page.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; each
// size's database is dropped at the end unless BENCH_PORTAL_KEEP=1 (its name is printed), and
// BENCH_PORTAL_DATABASE=<name> measures such a kept database again (with BENCH_SCALE naming its size).
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { imageMemoryEnv, imageNodeArgs, startAppServer, type AppServer } from "../tests/helpers/app-server";
import { bucketOf, summariseProfiles } from "./_cpu-profile-summary";
import { makeMemoryCgroup, type MemoryCgroup } from "./_memory-cgroup";
import { fmt, report } from "./_report";
import { seedPortal, seededCounts } from "./_seed-portal";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
Object.assign(process.env, { NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEV_DATA: "false", SESSION_SECRET });

const { connect } = await import("../db/connection");
const { migrateToLatest } = await import("../db/migrator");
type Database = import("../db/schema").Database;
const { setDatabaseForTests } = await import("~/utils/db.server");
const { createUserSessionHeaders } = await import("~/utils/session.server");
const { runBilling } = await import("~/features/billing/billing-run.server");

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const SIZES = [
  { name: "10k", customers: 10_000 },
  { name: "100k", customers: 100_000 },
].filter((size) => !process.env.BENCH_SCALE || process.env.BENCH_SCALE === size.name);
const REUSE = process.env.BENCH_PORTAL_DATABASE;
const KEEP = process.env.BENCH_PORTAL_KEEP === "1";
const HTTP_CALLS = Number(process.env.BENCH_HTTP_CALLS || 200);
const PROFILE_CALLS = 40;
const MACHINE_MIB = 256;
const P95_GOAL_MS = 20;
const BESIDE_ADMIN_GOAL_MS = 25;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** This month billed by the real run (plans on the catalogue's weekly plan), a third of it paid in cash. */
async function bill(db: Kysely<Database>) {
  await sql`update customer_plans set catalogue_plan_id = 'servicePlan.weekly'`.execute(db);
  {
    const result = await runBilling({ now: new Date() });
    await sql`insert into payments (invoice_id, method, amount_cents, paid_on, idempotency_key)
      select id, 'cash', total_cents - paid_cents, issued_on, 'bench:' || id from invoices
      where status = 'open' and total_cents > paid_cents and hashtext(id::text) % 3 = 0`.execute(db);
    await sql`update invoices set paid_cents = total_cents, status = 'paid', paid_at = now()
      where id in (select invoice_id from payments where idempotency_key like 'bench:%')`.execute(db);
    await sql`vacuum analyze`.execute(db);
    return result.invoices;
  }
}

/** The ids the pages need: a customer with a plan, an invoice and completed visits; a quote. */
async function pageIds(db: Kysely<Database>) {
  const customer = await sql<{ customer_id: string; invoice_id: string; visit_id: string; day: string }>`
    select i.customer_id, i.id as invoice_id, v.id as visit_id,
      to_char(v.service_date at time zone 'America/Los_Angeles', 'YYYY-MM-DD') as day
    from invoices i
    join lateral (select id, service_date from services s where s.customer_id = i.customer_id
      and s.status = 'completed' order by service_date desc limit 1) v on true
    where i.status = 'open' order by i.id limit 1`.execute(db);
  const quote = await sql<{
    id: string;
  }>`select id from quote_requests order by created_at desc, id limit 1 offset 3`.execute(db);
  if (!customer.rows[0] || !quote.rows[0]) throw new Error("the seeded database has no invoice or quote to time");
  return { ...customer.rows[0], quoteId: quote.rows[0].id };
}

async function cookieFor(userId: string, admin: boolean) {
  const headers = await createUserSessionHeaders(
    new Request("http://localhost/"),
    userId,
    admin ? { secondStepAt: new Date() } : undefined,
  );
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

type Page = { label: string; path: string; admin: boolean };
function portalPages(ids: Awaited<ReturnType<typeof pageIds>>): Page[] {
  const customer = (label: string, p: string): Page => ({ label: `customer: ${label}`, path: p, admin: false });
  const admin = (label: string, p: string): Page => ({ label: `admin: ${label}`, path: p, admin: true });
  return [
    customer("dashboard", "/customer-dashboard"),
    customer("visits", "/customer-dashboard/visits"),
    customer("a visit", `/customer-dashboard/visits/${ids.visit_id}`),
    customer("Your Plan", "/customer-dashboard/plan"),
    customer("Billing", "/customer-dashboard/billing"),
    customer("an invoice", `/customer-dashboard/billing/${ids.invoice_id}`),
    customer("Your Yard", "/customer-dashboard/yard"),
    admin("dashboard, Create Service", "/admin-dashboard"),
    admin("dashboard, Upload Images", `/admin-dashboard?tab=upload&service=${ids.visit_id}`),
    admin("Today", "/admin-dashboard/visits/today"),
    admin("visits, one day", `/admin-dashboard/visits?from=${ids.day}&to=${ids.day}`),
    admin("visits", "/admin-dashboard/visits"),
    admin("a visit", `/admin-dashboard/visits/${ids.visit_id}`),
    admin("customers", "/admin-dashboard/customers"),
    admin("customers, search", "/admin-dashboard/customers?q=okafor+77"),
    admin("customers, no plan", "/admin-dashboard/customers?plan=none"),
    admin("a customer", `/admin-dashboard/customers/${ids.customer_id}`),
    admin("a customer, Change plan", `/admin-dashboard/customers/${ids.customer_id}?form=change-plan`),
    admin("bookings", "/admin-dashboard/bookings"),
    admin("bookings, confirmed", "/admin-dashboard/bookings?status=confirmed"),
    admin("bookings, unmatched", "/admin-dashboard/bookings?unmatched=1"),
    admin("quote requests", "/admin-dashboard/quotes"),
    admin("quote requests, oldest", "/admin-dashboard/quotes?oldest=1"),
    admin("a quote request", `/admin-dashboard/quotes/${ids.quoteId}`),
    admin("Billing, open", "/admin-dashboard/billing"),
    admin("Billing, paid", "/admin-dashboard/billing?status=paid"),
    admin("Billing, void", "/admin-dashboard/billing?status=void"),
    admin("Billing, uncollectible", "/admin-dashboard/billing?status=uncollectible"),
    admin("an invoice", `/admin-dashboard/billing/${ids.invoice_id}`),
  ];
}

/** One GET on a kept-alive connection of its own agent. */
function get(agent: http.Agent, url: string, cookie: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: { Cookie: cookie, Accept: "text/html" } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on("error", reject);
  });
}

/** The server process's CPU time so far (user + system), in ms, from /proc (Linux; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

async function timePage(agent: http.Agent, url: string, cookie: string, calls: number, pid?: number) {
  const first = await get(agent, url, cookie);
  if (first.status !== 200) throw new Error(`${url} answered ${first.status}`);
  for (let i = 0; i < 20; i++) await get(agent, url, cookie);
  const times: number[] = [];
  const cpuBefore = cpuMs(pid);
  for (let i = 0; i < calls; i++) {
    const r = await get(agent, url, cookie);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    times.push(r.ms);
  }
  // CPU per request barely moves with the machine's load, where the wall-clock figures do.
  const cpuPerRequest = (cpuMs(pid) - cpuBefore) / calls;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), cpu: cpuPerRequest };
}

/** The server as the image starts it (its env and CMD flags); `nodeArgs` replaces the CMD's flags. */
function startServer(
  databaseUrl: string,
  cgroup: MemoryCgroup | null,
  nodeArgs: string[] = imageNodeArgs(),
  env: Record<string, string> = {},
) {
  return startAppServer(
    {
      DATABASE_URL: databaseUrl,
      SESSION_SECRET,
      SEED_DEV_DATA: "false",
      LOG_LEVEL: "error",
      ...imageMemoryEnv(),
      ...env,
    },
    { ready: "healthy", stdio: "inherit", cgroup: cgroup?.dir, nodeArgs },
  );
}

async function measure(size: { name: string; customers: number }) {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const name = REUSE ?? `bench_portal_${size.name}_${randomBytes(3).toString("hex")}`;
  if (!REUSE) await admin.query(`create database "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = connect({ databaseUrl: url.toString(), poolSize: 4 });
  const cgroupOrWhy = makeMemoryCgroup(`swift-scoop-bench-${randomBytes(3).toString("hex")}`, MACHINE_MIB);
  const cgroup = "dir" in cgroupOrWhy ? cgroupOrWhy : null;
  if (!cgroup)
    console.log(`  ${(cgroupOrWhy as { unavailable: string }).unavailable}: the server runs without a limit`);
  let app: AppServer | undefined;
  const agents: http.Agent[] = [];
  const agent = () => {
    const made = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(made);
    return made;
  };
  // The bench's own calls (the billing run, the sessions) use this database.
  setDatabaseForTests(handle.db);
  try {
    await migrateToLatest(handle.db);
    let invoices = 0;
    if (!REUSE) {
      const seeded = await seedPortal(handle.db, size.customers);
      const started = Date.now();
      invoices = await bill(handle.db);
      console.log(
        `\n${size.name}: seeded ${fmt(seeded.users)} users, ${fmt(seeded.services)} visits in ${fmt(seeded.seconds)} s; ${fmt(invoices)} invoices billed in ${fmt((Date.now() - started) / 1000)} s`,
      );
    }
    const { adminId } = await seededCounts(handle.db);
    const ids = await pageIds(handle.db);
    const cookies = { customer: await cookieFor(ids.customer_id, false), admin: await cookieFor(adminId, true) };
    const pages = portalPages(ids);

    // 1. Each page alone, one request at a time.
    app = await startServer(url.toString(), cgroup);
    const one = agent();
    const timings = new Map<string, { p50: number; p95: number; cpu: number }>();
    for (const page of pages) {
      const cookie = cookies[page.admin ? "admin" : "customer"];
      timings.set(page.label, await timePage(one, `${app.url}${page.path}`, cookie, HTTP_CALLS, app.child.pid));
    }
    // 2. The customer's dashboard while an admin keeps loading Today.
    let busy = true;
    const heavy = agent();
    const todayUrl = `${app.url}/admin-dashboard/visits/today`;
    const adminLoop = (async () => {
      let loads = 0;
      while (busy) {
        await get(heavy, todayUrl, cookies.admin);
        loads += 1;
      }
      return loads;
    })();
    const beside = await timePage(agent(), `${app.url}/customer-dashboard`, cookies.customer, HTTP_CALLS);
    busy = false;
    const adminLoads = await adminLoop;
    for (const made of agents.splice(0)) made.destroy();
    await app.stop();
    app = undefined;
    const memory = cgroup ? { peak: cgroup.peakMiB(), hits: cgroup.limitHits() } : null;

    // 4. A profiled server: where the CPU goes while it serves every page.
    const profileDir = mkdtempSync(path.join(os.tmpdir(), "bench-portal-profile-"));
    app = await startServer(url.toString(), cgroup, [...imageNodeArgs(), "--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
    const profiled = agent();
    for (const page of pages) {
      await timePage(profiled, `${app.url}${page.path}`, cookies[page.admin ? "admin" : "customer"], PROFILE_CALLS);
    }
    for (const made of agents.splice(0)) made.destroy();
    await app.stop();
    app = undefined;
    const profile = summariseProfiles(profileDir);
    rmSync(profileDir, { recursive: true, force: true });

    // 5. The garbage a request leaves, on a server sampling its heap around each page's calls.
    const heapDir = mkdtempSync(path.join(os.tmpdir(), "bench-portal-heap-"));
    const sampler = ["--import", pathToFileURL(path.join(root, "bench/_heap-sampler.mjs")).href];
    app = await startServer(url.toString(), cgroup, [...imageNodeArgs(), ...sampler], { HEAP_SAMPLE_DIR: heapDir });
    const sampled = agent();
    const garbage: { label: string; kbPerRequest: number; parts: { bucket: string; kb: number }[] }[] = [];
    for (const [n, page] of pages.filter((p) => GARBAGE_PAGES.includes(p.label)).entries()) {
      const pageUrl = `${app.url}${page.path}`;
      const cookie = cookies[page.admin ? "admin" : "customer"];
      await timePage(sampled, pageUrl, cookie, 20);
      app.child.kill("SIGUSR2");
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < GARBAGE_CALLS; i++) await get(sampled, pageUrl, cookie);
      app.child.kill("SIGUSR2");
      garbage.push({ label: page.label, ...garbageOf(await heapProfile(path.join(heapDir, `${n}.heapprofile`))) });
    }
    for (const made of agents.splice(0)) made.destroy();
    await app.stop();
    app = undefined;
    rmSync(heapDir, { recursive: true, force: true });

    // 6. A candidate change of Node's flags, side by side with the image's own, in turns.
    const compared = TRIED_FLAGS.length ? await compareFlags(url.toString(), cgroup, pages, cookies) : [];
    return { timings, beside, adminLoads, memory, profile, garbage, compared };
  } finally {
    for (const made of agents) made.destroy();
    await app?.stop();
    cgroup?.remove();
    setDatabaseForTests(undefined);
    await handle.close();
    if (KEEP || REUSE) console.log(`  kept database ${name} (BENCH_PORTAL_DATABASE=${name} BENCH_SCALE=${size.name})`);
    else await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

const GARBAGE_PAGES = ["customer: dashboard", "customer: an invoice", "admin: Today", "admin: a customer"];
const GARBAGE_CALLS = 100;
type HeapNode = { callFrame: { functionName: string; url: string }; selfSize: number; children: HeapNode[] };

/** A profile the sampler writes once stopped (it renames the finished file into place). */
async function heapProfile(file: string): Promise<HeapNode> {
  for (let waited = 0; !existsSync(file); waited += 100) {
    if (waited > 30_000) throw new Error(`the heap sampler wrote no ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (JSON.parse(readFileSync(file, "utf8")) as { head: HeapNode }).head;
}

/** Sampled bytes a request, in KB, and the parts (the buckets of the CPU summary) that made most. */
function garbageOf(head: HeapNode) {
  const byBucket = new Map<string, number>();
  const visit = (node: HeapNode) => {
    const bucket = bucketOf(node.callFrame);
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + node.selfSize);
    node.children.forEach(visit);
  };
  visit(head);
  const kb = (bytes: number) => bytes / GARBAGE_CALLS / 1024;
  const total = [...byBucket.values()].reduce((a, b) => a + b, 0);
  const parts = [...byBucket]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([bucket, bytes]) => ({ bucket, kb: kb(bytes) }));
  return { kbPerRequest: kb(total), parts };
}

/** BENCH_PORTAL_FLAGS="--flag ...": Node flags to try beside the image's CMD flags (decision 119). */
const TRIED_FLAGS = (process.env.BENCH_PORTAL_FLAGS ?? "").split(" ").filter(Boolean);
const COMPARED = ["admin: Today", "admin: a customer", "customer: dashboard"];
const COMPARE_ROUNDS = 3;

/**
 * A few pages on two servers started in turns, one with the image's CMD flags and one with
 * BENCH_PORTAL_FLAGS added (each round starts both afresh), so that both share the machine's
 * noise: p95 and server CPU per request over all rounds.
 */
async function compareFlags(
  databaseUrl: string,
  cgroup: MemoryCgroup | null,
  pages: Page[],
  cookies: { customer: string; admin: string },
) {
  const chosen = pages.filter((page) => COMPARED.includes(page.label));
  type Side = { times: number[]; cpu: number; calls: number };
  const fresh = (): Side => ({ times: [], cpu: 0, calls: 0 });
  const times = new Map(chosen.map((page) => [page.label, { image: fresh(), tried: fresh() }]));
  for (let round = 0; round < COMPARE_ROUNDS; round++) {
    for (const side of ["image", "tried"] as const) {
      const flags = side === "image" ? imageNodeArgs() : [...imageNodeArgs(), ...TRIED_FLAGS];
      const server = await startServer(databaseUrl, cgroup, flags);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (const page of chosen) {
          const cookie = cookies[page.admin ? "admin" : "customer"];
          const t = await timePage(agent, `${server.url}${page.path}`, cookie, HTTP_CALLS / 2, server.child.pid);
          const kept = times.get(page.label)![side];
          kept.times.push(t.p50, t.p95);
          kept.cpu += t.cpu * (HTTP_CALLS / 2);
          kept.calls += HTTP_CALLS / 2;
        }
      } finally {
        agent.destroy();
        await server.stop();
      }
    }
  }
  // Each round's p95, the worst of the rounds; CPU per request over all of them.
  const worst = (side: Side) => Math.max(...side.times.filter((_, i) => i % 2 === 1));
  return [...times].map(([label, t]) => ({
    label,
    image: { p95: worst(t.image), cpu: t.image.cpu / t.image.calls },
    tried: { p95: worst(t.tried), cpu: t.tried.cpu / t.tried.calls },
  }));
}

if (!existsSync(path.join(root, "build/index.js"))) throw new Error("no production build: npm run build first");
if (REUSE && SIZES.length !== 1) throw new Error("BENCH_PORTAL_DATABASE measures one kept database: say BENCH_SCALE");
for (const size of SIZES) {
  const r = await measure(size);
  for (const [label, t] of r.timings) {
    report({
      figure: `${label} p50 / p95 at ${size.name} (256 MiB cgroup, HTTP, one at a time)`,
      value: `${fmt(t.p50, 2)} / ${fmt(t.p95, 2)} ms (server CPU ${fmt(t.cpu, 1)} ms a request)`,
      goal: `p95 <= ${P95_GOAL_MS} ms`,
      ok: t.p95 <= P95_GOAL_MS,
    });
  }
  report({
    figure: `customer dashboard while an admin loads Today (${fmt(r.adminLoads)} loads) at ${size.name}: p50 / p95`,
    value: `${fmt(r.beside.p50, 2)} / ${fmt(r.beside.p95, 2)} ms`,
    goal: `p95 <= ${BESIDE_ADMIN_GOAL_MS} ms`,
    ok: r.beside.p95 <= BESIDE_ADMIN_GOAL_MS,
  });
  report({
    figure: `the server's peak memory in its ${MACHINE_MIB} MiB cgroup at ${size.name}, times the limit was hit`,
    value: r.memory ? `${fmt(r.memory.peak, 1)} MiB, ${fmt(r.memory.hits)}` : "no cgroup on this machine",
    goal: `< ${MACHINE_MIB} MiB, 0`,
    ok: r.memory ? r.memory.peak < MACHINE_MIB && r.memory.hits === 0 : null,
  });
  report({
    figure: `where the server's CPU went serving the ${r.timings.size} pages ${PROFILE_CALLS} times each at ${size.name} (self time)`,
    value: r.profile
      .slice(0, 8)
      .map((part) => `${part.bucket} ${fmt(part.share * 100, 1)} %`)
      .join("; "),
    goal: "information",
    ok: null,
  });
  for (const g of r.garbage) {
    report({
      figure: `${g.label} at ${size.name}: garbage a request (sampled heap, freed objects included), biggest parts`,
      value: `${fmt(g.kbPerRequest)} KB; ${g.parts.map((part) => `${part.bucket} ${fmt(part.kb)} KB`).join("; ")}`,
      goal: "information",
      ok: null,
    });
  }
  for (const c of r.compared) {
    report({
      figure: `${c.label} at ${size.name} with ${TRIED_FLAGS.join(" ")} vs the image's flags, in turns: p95, server CPU a request`,
      value: `${fmt(c.tried.p95, 2)} vs ${fmt(c.image.p95, 2)} ms (${fmt(c.tried.p95 / c.image.p95, 2)}x); CPU ${fmt(c.tried.cpu, 1)} vs ${fmt(c.image.cpu, 1)} ms (${fmt(c.tried.cpu / c.image.cpu, 2)}x)`,
      goal: "information",
      ok: null,
    });
  }
}
