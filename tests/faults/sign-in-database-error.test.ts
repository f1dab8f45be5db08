import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect, type DatabaseHandle } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { formPost, setCookie, settle } from "../helpers/auth-requests";
import { createUser, type TestUser } from "../helpers/factories";
import { testServerUrl } from "../helpers/test-database";
import { SIGN_IN_UNAVAILABLE } from "~/features/accounts/password-sign-in.server";
import { action } from "~/routes/auth";
import { setDatabaseForTests } from "~/utils/db.server";

/**
 * A database error in the middle of the password check (issue 35 item 6): another session holds
 * `users` locked (a migration, a VACUUM FULL) and the app's sessions give up waiting after
 * `lock_timeout`, so the attempt is counted but the password's row cannot be read. The sign-in
 * answers 503 "We could not sign you in right now. Please try again." (it answered 500), with
 * Retry-After, and stores nothing: no session, and the attempt given back. On the machine's
 * PostgreSQL (PGlite has one connection, so nothing else can hold a lock): skipped without one.
 */
const SERVER_URL = testServerUrl() ?? "postgres://postgres@127.0.0.1:5432/postgres";

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
if (!available) console.warn("sign-in-database-error: no PostgreSQL at", SERVER_URL, "- skipped");

const name = `signin_fault_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
let admin: pg.Client;
let locker: pg.Client;
let handle: DatabaseHandle;
let user: TestUser;
let ip = 0;

const signIn = (password: string) =>
  settle(() =>
    action({
      request: formPost("/auth", { intent: "signin", email: user.email, password }, { ip: `198.51.100.${++ip}` }),
      params: {},
      context: {},
    }),
  );

async function stored() {
  const rows = await handle.db
    .selectFrom("rate_limits")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("hits"), eb.lit(0)).as("hits"))
    .executeTakeFirstOrThrow();
  const sessions = await handle.db
    .selectFrom("sessions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return { hits: Number(rows.hits), sessions: Number(sessions.n) };
}

describe.skipIf(!available)("the database fails during the password check", () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    // Every session of the app's pool waits at most this long for a lock.
    await admin.query(`alter database "${name}" set lock_timeout = '300ms'`);
    const url = new URL(SERVER_URL);
    url.pathname = `/${name}`;
    handle = connect({ databaseUrl: url.toString(), poolSize: 2 });
    await migrateToLatest(handle.db);
    setDatabaseForTests(handle.db);
    user = await createUser(handle.db, { password: "a good long password" });
    locker = new pg.Client({ connectionString: url.toString() });
    await locker.connect();
  }, 120_000);

  afterAll(async () => {
    setDatabaseForTests(undefined);
    await locker?.end().catch(() => undefined);
    await handle?.close();
    await admin?.query(`drop database if exists "${name}" with (force)`);
    await admin?.end();
  });

  test("503 with a clear message and Retry-After, and nothing stored; once the lock is gone, the sign-in works", async () => {
    const before = await stored();
    await locker.query("begin");
    await locker.query("lock table users in access exclusive mode");
    let refused: Response;
    try {
      refused = await signIn("a good long password");
    } finally {
      await locker.query("rollback");
    }
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("5");
    expect(setCookie(refused, "__session")).toBeFalsy();
    const data = await refused.json();
    expect(data.toast).toEqual({ message: "Login failed", description: SIGN_IN_UNAVAILABLE });
    expect(JSON.stringify(data.result)).toContain(SIGN_IN_UNAVAILABLE);
    expect(SIGN_IN_UNAVAILABLE).toBe("We could not sign you in right now. Please try again.");
    // Nothing stored: no session, and the attempt counted before the check was given back.
    expect(await stored()).toEqual(before);

    const signedIn = await signIn("a good long password");
    expect(signedIn.status).toBe(302);
    expect(setCookie(signedIn, "__session")).toBeTruthy();
    expect((await stored()).sessions).toBe(before.sessions + 1);
  });
});
