// The technician's phone app's offline shell (issue 36 item 3; docs/decisions/127): everything
// the service worker precaches (public/build/service-worker/shell.json, written by the build)
// and Today's HTML for a technician with a full day (40 stops, each with a yard, a gate code on
// file and coordinates), as the phone stores them. Goal <= 200 KB. Printed beside it, for
// information: the worker script itself (the browser keeps it, it is not in the precache), and
// everything over the wire (gzip).
// Run: npm run build && npm run bench offline-shell. BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres) names the server; the database is made for the
// run and dropped at the end.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { startAppServer, type AppServer } from "../tests/helpers/app-server";
import { fmt, report } from "./_report";

const SESSION_SECRET = "bench-session-secret-that-is-long-enough-0123456789";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SERVER_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const STOPS = 40;
const GOAL_KB = 200;
const SHELL = path.join(root, "public/build/service-worker/shell.json");
const BUSINESS_TODAY = sql`(now() at time zone 'America/Los_Angeles')::date`;

if (!existsSync(SHELL) || !existsSync(path.join(root, "build/index.js"))) {
  console.log("  no production build (npm run build): the offline shell skipped");
  process.exit(0);
}
const shell = JSON.parse(readFileSync(SHELL, "utf8")) as { worker: number; entries: { url: string; bytes: number }[] };
const fileOf = (url: string) => path.join(root, "public", url);

async function seed(db: Kysely<any>) {
  const tech = await sql<{ id: string }>`insert into users (email, email_verified_at)
    values ('tech@bench.example.org', now()) returning id`.execute(db);
  const techId = tech.rows[0].id;
  await sql`insert into profiles (user_id, full_name) values (${techId}, 'Tess Technician')`.execute(db);
  await sql`insert into user_roles (user_id, role) values (${techId}, 'technician')`.execute(db);
  await sql`insert into user_totp (user_id, secret, enabled_at) values (${techId}, 'JBSWY3DPEHPK3PXP', now())`.execute(
    db,
  );
  await sql`insert into users (email, email_verified_at)
    select 'stop' || g || '@bench.example', now() from generate_series(1, ${STOPS}) g`.execute(db);
  await sql`insert into profiles (user_id, full_name)
    select id, 'Stop Customer ' || split_part(split_part(email, '@', 1), 'stop', 2) from users where email like 'stop%@bench.example'`.execute(
    db,
  );
  await sql`insert into yard_profiles (user_id, street, city, zip, gate_code, dog_count, mobile_phone, latitude, longitude)
    select id, (row_number() over ()) || ' Desert Springs Rd', 'Las Vegas', '89117', '1234', 2, '+17025550148',
      36.0 + random() * 0.3, -115.3 + random() * 0.35
    from users where email like 'stop%@bench.example'`.execute(db);
  await sql`insert into services (customer_id, service_type, service_date, status, assigned_to)
    select id, 'Weekly Service', (${BUSINESS_TODAY} + time '08:00') at time zone 'America/Los_Angeles', 'scheduled', ${techId}
    from users where email like 'stop%@bench.example'`.execute(db);
  return techId;
}

const admin = new pg.Client({ connectionString: SERVER_URL });
await admin.connect();
const name = `tech_offline_shell_${randomBytes(3).toString("hex")}`;
await admin.query(`create database "${name}"`);
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
let app: AppServer | undefined;
let closeDb: (() => Promise<void>) | undefined;
try {
  Object.assign(process.env, {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SEED_DEV_DATA: "false",
    SESSION_SECRET,
    DATABASE_URL: url.toString(),
  });
  const { connect } = await import("../db/connection");
  const { migrateToLatest } = await import("../db/migrator");
  const handle = connect({ databaseUrl: url.toString(), poolSize: 2 });
  closeDb = () => handle.close();
  await migrateToLatest(handle.db);
  const techId = await seed(handle.db);
  const { createUserSessionHeaders } = await import("~/utils/session.server");
  const cookie = (
    (await createUserSessionHeaders(new Request("http://localhost/"), techId, { secondStepAt: new Date() })).get(
      "Set-Cookie",
    ) ?? ""
  ).split(";")[0];

  app = await startAppServer(
    { DATABASE_URL: url.toString(), SESSION_SECRET, SEED_DEV_DATA: "false", LOG_LEVEL: "error" },
    { ready: "healthy", stdio: "inherit" },
  );
  const response = await fetch(`${app.url}/admin-dashboard/visits/today`, {
    headers: { Cookie: cookie, "Accept-Encoding": "identity" },
    redirect: "manual",
  });
  const html = Buffer.from(await response.arrayBuffer());
  const stops = (html.toString("utf8").match(/id="stop-/g) ?? []).length;
  if (response.status !== 200 || stops !== STOPS) {
    throw new Error(`Today answered ${response.status} with ${stops} stops (expected ${STOPS})`);
  }
  const files = shell.entries.map((entry) => readFileSync(fileOf(entry.url)));
  const worker = readFileSync(path.join(root, "public/build/service-worker/sw.js"));
  const parts = [
    ...shell.entries.map((entry, i) => ({
      what: entry.url,
      bytes: files[i]!.length,
      gzip: gzipSync(files[i]!).length,
    })),
    { what: `Today's HTML (${STOPS} stops)`, bytes: html.length, gzip: gzipSync(html).length },
  ];
  const workerPart = {
    what: "/admin-dashboard/sw.js (not precached)",
    bytes: worker.length,
    gzip: gzipSync(worker).length,
  };
  for (const part of [...parts, workerPart]) {
    console.log(`  ${part.what}: ${fmt(part.bytes / 1024, 1)} KB (gzip ${fmt(part.gzip / 1024, 1)} KB)`);
  }
  const total = parts.reduce((sum, p) => sum + p.bytes, 0) / 1024;
  const gzip = [...parts, workerPart].reduce((sum, p) => sum + p.gzip, 0) / 1024;
  report({
    figure: `offline shell: precache + Today's HTML (${STOPS} stops), as stored`,
    value: `${fmt(total, 1)} KB`,
    goal: `<= ${GOAL_KB} KB`,
    ok: total <= GOAL_KB,
  });
  report({
    figure: "the service worker script (kept by the browser)",
    value: `${fmt(worker.length / 1024, 1)} KB`,
    goal: "information",
    ok: null,
  });
  report({ figure: "shell + worker over the wire (gzip)", value: `${fmt(gzip, 1)} KB`, goal: "information", ok: null });
} finally {
  await app?.stop();
  await closeDb?.();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
