import { createHmac } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { signUpAnswersSchema, type SignUpAnswers } from "./sign-up-schema";
import { hitRateLimit } from "~/models/rate-limit.server";
import { findLiveSignUp, insertSignUp, saveSignUpAnswers, type SignUpRow } from "~/models/sign-up.server";
import { getClientKey } from "~/utils/client-ip.server";
import { getDb } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";

/**
 * Where a sign-up's answers live between the steps (docs/decisions/129): a row of `sign_ups`,
 * found by the id in a signed cookie (the session of an anonymous visitor lives 10 minutes, too
 * short for someone who fetches the gate code). A row is made only by a posted first step, at
 * most SIGN_UP_START_LIMIT per client an hour; it expires a day after its last answer and the
 * purge job deletes it then, so nobody can grow the table without bound.
 */

export const SIGN_UP_TTL_MS = 24 * 60 * 60 * 1000;
/** New sign-ups per client: a household trying twice, not a script. */
export const SIGN_UP_START_LIMIT = { limit: 10, windowMs: 60 * 60 * 1000 };
/** Waitlist posts per client. */
export const WAITLIST_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 };

let cookie: ReturnType<typeof createCookie> | undefined;
function signUpCookie() {
  const env = getEnv();
  cookie ??= createCookie("__start", {
    httpOnly: true,
    sameSite: "lax",
    path: "/start",
    secure: env.NODE_ENV === "production",
    secrets: [env.SESSION_SECRET],
    maxAge: SIGN_UP_TTL_MS / 1000,
  });
  return cookie;
}

/** The rate-limit key of a client: a keyed hash, never the address itself. */
export function signUpClientKey(request: Request, context: object): string {
  const address = getClientKey(request, context);
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`start-client:${address}`).digest("hex").slice(0, 32);
}

export type LiveSignUp = { row: SignUpRow; answers: SignUpAnswers };

/** The visitor's sign-up in progress, or null (no cookie, a forged one, or expired). */
export async function readSignUp(request: Request, now = new Date()): Promise<LiveSignUp | null> {
  const id: unknown = await signUpCookie().parse(request.headers.get("Cookie"));
  if (typeof id !== "string") return null;
  const row = await findLiveSignUp(await getDb(), id, now);
  if (!row || row.finished_at) return null;
  const parsed = signUpAnswersSchema.safeParse(row.answers);
  return { row, answers: parsed.success ? parsed.data : {} };
}

export type SavedAnswers = { ok: true; headers: Headers } | { ok: false; retryAfterSeconds: number };

/**
 * Stores the answers: on the visitor's row, or on a new one (rate limited per client) whose id
 * the returned Set-Cookie carries.
 */
export async function saveAnswers(
  request: Request,
  context: object,
  current: LiveSignUp | null,
  answers: SignUpAnswers,
  now = new Date(),
): Promise<SavedAnswers> {
  const db = await getDb();
  const clean = signUpAnswersSchema.parse(answers);
  const expires = new Date(now.getTime() + SIGN_UP_TTL_MS);
  if (current) {
    await saveSignUpAnswers(db, current.row.id, clean, expires, now);
    return { ok: true, headers: new Headers({ "Set-Cookie": await signUpCookie().serialize(current.row.id) }) };
  }
  const limit = await hitRateLimit(`start:${signUpClientKey(request, context)}`, SIGN_UP_START_LIMIT);
  if (!limit.allowed) return { ok: false, retryAfterSeconds: limit.retryAfterSeconds };
  const row = await insertSignUp(db, clean, expires);
  return { ok: true, headers: new Headers({ "Set-Cookie": await signUpCookie().serialize(row.id) }) };
}

/** Forgets the visitor's sign-up (after it finished). */
export async function clearSignUpCookie(): Promise<string> {
  return signUpCookie().serialize("", { maxAge: 0 });
}
