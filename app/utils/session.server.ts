import { randomBytes } from "node:crypto";
import { createSessionStorage, redirect, type Session } from "@remix-run/node";
import { getDb } from "./db.server";
import { getEnv } from "./env.server";

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
export const USER_ID_KEY = "userId";
/**
 * When this session passed its second step (an ISO time), absent when it never did. The
 * features decide what it is worth (decision 024); the session only carries it.
 */
export const SECOND_STEP_AT_KEY = "secondStepAt";

/**
 * A session without a user is only ever an OAuth round trip in progress (remix-auth keeps the
 * state there): it lives 10 minutes, so abandoned attempts do not pile up for 30 days.
 */
export const ANONYMOUS_SESSION_MAX_AGE_SECONDS = 10 * 60;

function defaultExpiry() {
  return new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
}

function expiryFor(data: Record<string, unknown>, expires: Date | undefined) {
  const wanted = expires ?? defaultExpiry();
  if (userIdOf(data)) return wanted;
  const anonymousLimit = new Date(Date.now() + ANONYMOUS_SESSION_MAX_AGE_SECONDS * 1000);
  return wanted < anonymousLimit ? wanted : anonymousLimit;
}

function userIdOf(data: Record<string, unknown>): string | null {
  const value = data[USER_ID_KEY];
  return typeof value === "string" ? value : null;
}

function createStorage() {
  const env = getEnv();
  return createSessionStorage<Record<string, unknown>>({
    cookie: {
      name: "__session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.NODE_ENV === "production",
      secrets: [env.SESSION_SECRET],
      maxAge: SESSION_MAX_AGE_SECONDS,
    },
    // The cookie holds only a signed random id; the row is the session, so deleting it ends it.
    async createData(data, expires) {
      const db = await getDb();
      const id = randomBytes(32).toString("base64url");
      await db
        .insertInto("sessions")
        .values({ id, user_id: userIdOf(data), data: JSON.stringify(data), expires_at: expiryFor(data, expires) })
        .execute();
      return id;
    },
    async readData(id) {
      const db = await getDb();
      const row = await db
        .selectFrom("sessions")
        .select(["data", "expires_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) return null;
      // Expiry is enforced here, whatever the cookie says.
      if (new Date(row.expires_at).getTime() <= Date.now()) {
        await db.deleteFrom("sessions").where("id", "=", id).execute();
        return null;
      }
      return row.data;
    },
    async updateData(id, data, expires) {
      const db = await getDb();
      await db
        .updateTable("sessions")
        .set({ data: JSON.stringify(data), user_id: userIdOf(data), expires_at: expiryFor(data, expires) })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id) {
      const db = await getDb();
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
  });
}

let storage: ReturnType<typeof createStorage> | undefined;
export function getSessionStorage() {
  storage ??= createStorage();
  return storage;
}

export function getSession(request: Request) {
  return getSessionStorage().getSession(request.headers.get("Cookie"));
}

export async function getUserId(request: Request): Promise<string | null> {
  return (await readSignedInSession(request)).userId;
}

function secondStepAtOf(session: Session): Date | null {
  const value = session.get(SECOND_STEP_AT_KEY);
  if (typeof value !== "string") return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The session, its user id and when it passed its second step, read with one query. */
export async function readSignedInSession(
  request: Request,
): Promise<{ session: Session; userId: string | null; secondStepAt: Date | null }> {
  const session = await getSession(request);
  const userId = session.get(USER_ID_KEY);
  return { session, userId: typeof userId === "string" ? userId : null, secondStepAt: secondStepAtOf(session) };
}

/** Records on a session that it passed its second step at `at` (null: forgets it). */
export function setSecondStepAt(session: Session, at: Date | null) {
  if (at) session.set(SECOND_STEP_AT_KEY, at.toISOString());
  else session.unset(SECOND_STEP_AT_KEY);
}

/** Saves a changed session (same id) and returns its Set-Cookie header. */
export function commitSession(session: Session) {
  return getSessionStorage().commitSession(session);
}

/**
 * Starts a signed-in session under a brand-new id (the old one, if any, is destroyed, so a
 * session id seen before sign-in is useless after it) and returns its Set-Cookie headers.
 * `secondStepAt`: when the sign-in passed its second step (only a sign-in that asked for one).
 */
export async function createUserSessionHeaders(
  request: Request,
  userId: string,
  { secondStepAt }: { secondStepAt?: Date } = {},
): Promise<Headers> {
  const sessionStorage = getSessionStorage();
  const headers = new Headers();
  const previous = await getSession(request);
  if (previous.id) await sessionStorage.destroySession(previous);
  const session = await sessionStorage.getSession();
  session.set(USER_ID_KEY, userId);
  if (secondStepAt) session.set(SECOND_STEP_AT_KEY, secondStepAt.toISOString());
  headers.append("Set-Cookie", await sessionStorage.commitSession(session, { expires: defaultExpiry() }));
  return headers;
}

export async function destroySessionHeaders(session: Session): Promise<Headers> {
  return new Headers({ "Set-Cookie": await getSessionStorage().destroySession(session) });
}

export async function logout(request: Request, redirectTo = "/") {
  const session = await getSession(request);
  throw redirect(redirectTo, { headers: await destroySessionHeaders(session) });
}

/**
 * Purge job (app/features/jobs/job-runs.server.ts): deletes expired sessions and anonymous ones older
 * than their 10 minutes (also those made before that limit existed). Expired sessions are
 * already refused on read; this only keeps the table small.
 */
export async function purgeExpiredSessions(): Promise<number> {
  const db = await getDb();
  const anonymousCutoff = new Date(Date.now() - ANONYMOUS_SESSION_MAX_AGE_SECONDS * 1000);
  const result = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", new Date()),
        eb.and([eb("user_id", "is", null), eb("created_at", "<", anonymousCutoff)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
