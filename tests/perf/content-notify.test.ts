import { randomBytes } from "node:crypto";
import path from "node:path";
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readDataset } from "~/content/content.server";
import { startSanityApiMock, type SanityApiMock } from "../mocks/sanity-api";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { testServerUrl } from "../helpers/test-database";

// Two machines on one PostgreSQL database: a publish announced to one is seen by the other.
const SERVER_URL = testServerUrl() ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SECRET = "notify-test-webhook-secret";
const DATASET = "production";
const name = `notify_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;

let documents: unknown[];
let sanity: SanityApiMock;
let machines: AppServer[] = [];

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

function withWeeklyPrice(amount: number) {
  return documents.map((doc) => {
    const d = doc as { _id: string; price?: object };
    return d._id === "servicePlan.weekly" ? { ...d, price: { ...d.price, amount } } : doc;
  });
}

async function weeklyPrice(machine: AppServer) {
  const response = await fetch(`${machine.url}/services/weekly`);
  const html = await response.text();
  return { price: /\$(\d+)\/month/.exec(html)?.[1], cache: response.headers.get("x-page-cache") };
}

/** Polls until the page shows `price`; returns the milliseconds it took, or null after `limitMs`. */
async function msUntilPrice(machine: AppServer, price: string, limitMs: number) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if ((await weeklyPrice(machine)).price === price) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

beforeAll(async () => {
  documents = await readDataset(path.resolve("studio/data/production.tar.gz"));
  sanity = await startSanityApiMock({ documents: withWeeklyPrice(89), dataset: DATASET });
  await admin(`create database "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    SANITY_PROJECT_ID: "notifytest",
    SANITY_DATASET: DATASET,
    SANITY_API_HOST: sanity.apiHost,
    SANITY_WEBHOOK_SECRET: SECRET,
    // Long enough that only an announced change (never the cache expiring) can explain a new price.
    CONTENT_CACHE_SECONDS: "3600",
  };
  // One after the other: both would run the migrations at once otherwise.
  machines.push(await startAppServer(env, { ready: "healthy" }));
  machines.push(await startAppServer(env, { ready: "healthy" }));
}, 120_000);

afterAll(async () => {
  await Promise.all(machines.map((machine) => machine.stop()));
  machines = [];
  await sanity?.close();
  await admin(`drop database if exists "${name}" with (force)`);
});

test("a signed webhook to one machine: the other serves the new price within 5 s", async () => {
  const [a, b] = machines;
  expect(await weeklyPrice(a)).toMatchObject({ price: "89" });
  await weeklyPrice(b);
  expect(await weeklyPrice(b)).toEqual({ price: "89", cache: "HIT" });

  sanity.setDocuments(withWeeklyPrice(97));
  // Still the cached page: nothing has told machine B yet.
  expect(await weeklyPrice(b)).toEqual({ price: "89", cache: "HIT" });

  const body = JSON.stringify({ _id: "servicePlan.weekly", _type: "servicePlan" });
  const response = await fetch(`${a.url}/resources/sanity-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), SECRET),
    },
    body,
  });
  expect(response.status).toBe(200);
  expect(await msUntilPrice(b, "97", 5_000)).not.toBeNull();
  expect((await weeklyPrice(a)).price).toBe("97");
});

test("a machine whose listening connection dropped clears its caches when it listens again", async () => {
  const [a, b] = machines;
  await weeklyPrice(b);
  expect(await weeklyPrice(b)).toEqual({ price: "97", cache: "HIT" });
  // A change whose NOTIFY this machine cannot hear: its listening connection is cut.
  sanity.setDocuments(withWeeklyPrice(105));
  const { rows } = await admin(
    `select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = '${name}' and query ilike 'LISTEN%'`,
  );
  expect(rows.length).toBe(2); // one listener per machine
  expect(await msUntilPrice(b, "105", 5_000)).not.toBeNull();
  expect(await msUntilPrice(a, "105", 5_000)).not.toBeNull();
});

test("a webhook with a bad signature changes nothing on any machine", async () => {
  const [a, b] = machines;
  sanity.setDocuments(withWeeklyPrice(111));
  const body = JSON.stringify({ _id: "servicePlan.weekly" });
  const response = await fetch(`${a.url}/resources/sanity-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), "wrong-secret"),
    },
    body,
  });
  expect(response.status).toBe(401);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect((await weeklyPrice(b)).price).toBe("105");
  expect((await weeklyPrice(a)).price).toBe("105");
});
