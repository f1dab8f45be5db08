import { randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { goodQuote } from "../helpers/quote-form";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { testServerUrl } from "../helpers/test-database";

/**
 * The database going away, played with a loopback TCP proxy between `node server.js` and the
 * machine's PostgreSQL (which is never stopped): unreachable at start, then cut under load.
 */
const SERVER_URL = testServerUrl() ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** startAppServer's SESSION_SECRET: a cookie the server accepts, for a session it cannot look up. */
const SESSION_SECRET = "app-server-test-secret-that-is-long-enough";
const MESSAGE = "We're having trouble right now. Please try again in a moment.";

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
const available = await postgresAnswers();
if (!available) console.warn("database-faults: no PostgreSQL at", SERVER_URL, "- skipped");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const name = `faults_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
let admin: pg.Client;
let proxy: TcpProxy;
let app: AppServer;

describe.skipIf(!available)("the database goes away", () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    // The proxy's port is reserved but closed: the database is unreachable when the app starts.
    proxy = await startTcpProxy(Number(new URL(SERVER_URL).port || 5432), { listening: false });
    const url = new URL(SERVER_URL);
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    app = await startAppServer({ DATABASE_URL: url.toString() });
  }, 120_000);

  afterAll(async () => {
    if (app && app.child.exitCode !== null) console.error("database-faults: the server died:\n" + app.output());
    await app?.stop();
    await proxy?.close();
    await admin?.query(`drop database if exists "${name}" with (force)`);
    await admin?.end();
  });

  test("(b) unreachable at start: the server runs, answers 503 until the database answers, then 200 with no restart", async () => {
    for (let i = 0; i < 3; i++) {
      const health = await fetch(`${app.url}/resources/healthcheck`);
      expect(health.status).toBe(503);
      await sleep(300);
    }
    // A request that needs the database gets the 503 page (public pages from content still work).
    const quote = await fetch(`${app.url}/contact?index`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(goodQuote()),
    });
    expect(quote.status).toBe(503);
    expect(quote.headers.get("Retry-After")).toBe("5");
    expect(await quote.text()).toContain(MESSAGE);
    expect((await fetch(`${app.url}/services`)).status).toBe(200);
    // Resource routes too: a photo or video (and the admin's customer search) behind a session
    // that cannot be read is the same 503, not Remix's 500 for a resource route.
    const session = await createCookie("__session", { secrets: [SESSION_SECRET] }).serialize("some-session-id");
    for (const path of ["/resources/media/00000000-0000-4000-8000-000000000000", "/resources/customer-search?q=ann"]) {
      const media = await fetch(`${app.url}${path}`, { headers: { Cookie: session } });
      expect(media.status, path).toBe(503);
      expect(media.headers.get("Retry-After")).toBe("5");
      expect(media.headers.get("Cache-Control")).toBe("no-store");
      expect(await media.text()).toBe(MESSAGE);
    }

    const pid = app.child.pid;
    await proxy.restore();
    const restored = Date.now();
    let status = 0;
    while (Date.now() - restored < 15_000) {
      status = (await fetch(`${app.url}/resources/healthcheck`)).status;
      if (status === 200) break;
      await sleep(100);
    }
    expect(status).toBe(200);
    console.log(`database-faults: healthy ${Date.now() - restored} ms after the database became reachable`);
    expect(app.child.pid).toBe(pid);
    expect(app.child.exitCode).toBeNull();
    expect((await fetch(`${app.url}/contact`)).status).toBe(200);
  }, 60_000);

  test("(a) lost under load: 503 page meanwhile, recovery within 5 s, no accepted quote lost", async () => {
    type Outcome = { phase: "before" | "cut" | "after"; kind: string; status: number; body: string; email?: string };
    const outcomes: Outcome[] = [];
    let phase: Outcome["phase"] = "before";
    let stop = false;
    let client = 0;

    async function one(kind: string) {
      const current = phase;
      if (kind === "quote") {
        const values = goodQuote({ email: `load-${randomBytes(4).toString("hex")}@example.com` });
        client += 1;
        const response = await fetch(`${app.url}/contact?index`, {
          method: "POST",
          redirect: "manual",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": `10.9.${client >> 8}.${client & 255}`,
          },
          body: new URLSearchParams(values),
        });
        outcomes.push({
          phase: current,
          kind,
          status: response.status,
          body: await response.text(),
          email: values.email,
        });
        return;
      }
      const path = kind === "health" ? "/resources/healthcheck" : kind === "page" ? "/services" : "/contact";
      const response = await fetch(`${app.url}${path}`);
      outcomes.push({ phase: current, kind, status: response.status, body: await response.text() });
    }
    const kinds = ["page", "quote", "form-page", "health"];
    const workers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = w; !stop; i++)
        await one(kinds[i % kinds.length]).catch((error) =>
          outcomes.push({ phase, kind: "network", status: 0, body: String(error) }),
        );
    });

    await sleep(1500);
    phase = "cut";
    await proxy.cut();
    await sleep(2500);
    phase = "after";
    await proxy.restore();
    const restored = Date.now();
    let recoveredMs = -1;
    while (Date.now() - restored < 10_000) {
      const [health, quotePage] = await Promise.all([
        fetch(`${app.url}/resources/healthcheck`),
        fetch(`${app.url}/contact`),
      ]);
      if (health.status === 200 && quotePage.status === 200) {
        recoveredMs = Date.now() - restored;
        break;
      }
      await sleep(50);
    }
    await sleep(1000);
    stop = true;
    await Promise.all(workers);

    const histogram: Record<string, number> = {};
    for (const o of outcomes)
      histogram[`${o.phase} ${o.kind} ${o.status}`] = (histogram[`${o.phase} ${o.kind} ${o.status}`] ?? 0) + 1;
    console.log(
      `database-faults: recovered ${recoveredMs} ms after the database came back; ${outcomes.length} requests`,
      histogram,
    );

    expect(recoveredMs).toBeGreaterThanOrEqual(0);
    expect(recoveredMs).toBeLessThanOrEqual(5000);
    // Never a 500, nor a dropped connection: 503 with the message while the database is away.
    expect(outcomes.filter((o) => o.status === 0 || o.status === 500 || o.status > 503)).toEqual([]);
    const unavailable = outcomes.filter((o) => o.status === 503 && o.kind !== "health");
    expect(unavailable.length).toBeGreaterThan(0);
    for (const o of unavailable) expect(o.body).toContain(MESSAGE);
    expect(outcomes.filter((o) => o.phase === "cut" && o.kind === "quote" && o.status === 503).length).toBeGreaterThan(
      0,
    );

    // Every quote the app accepted (the redirect to the success screen) is stored.
    const accepted = outcomes.filter((o) => o.kind === "quote" && o.status === 302).map((o) => o.email!);
    expect(accepted.length).toBeGreaterThan(0);
    const db = new pg.Client({
      connectionString: Object.assign(new URL(SERVER_URL), { pathname: `/${name}` }).toString(),
    });
    await db.connect();
    const { rows } = await db.query<{ email: string }>("select email from quote_requests");
    await db.end();
    const stored = new Set(rows.map((r) => r.email));
    expect(accepted.filter((email) => !stored.has(email))).toEqual([]);
  }, 60_000);
});
