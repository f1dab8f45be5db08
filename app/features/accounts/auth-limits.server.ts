import { normalizeEmail } from "~/models/account.server";
import { hitRateLimit, refundRateLimit, resetRateLimit } from "~/models/rate-limit.server";

const MINUTE = 60_000;

// Failed sign-ins: 5 per address (guessing one password) and 20 per client (trying many
// addresses) per 15 minutes. Sign-ups: 10 per client and 5 per address per hour.
export const AUTH_LIMITS = {
  signInPerEmail: { limit: 5, windowMs: 15 * MINUTE },
  signInPerClient: { limit: 20, windowMs: 15 * MINUTE },
  signUpPerEmail: { limit: 5, windowMs: 60 * MINUTE },
  signUpPerClient: { limit: 10, windowMs: 60 * MINUTE },
} as const;

export type LimitCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const emailKey = (kind: "signin" | "signup", email: string) => `${kind}:email:${normalizeEmail(email).toLowerCase()}`;
const clientKey = (kind: "signin" | "signup", ip: string) => `${kind}:ip:${ip}`;

async function check(hits: Promise<{ allowed: boolean; retryAfterSeconds: number }>[]): Promise<LimitCheck> {
  const results = await Promise.all(hits);
  const refused = results.filter((r) => !r.allowed);
  if (refused.length === 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(...refused.map((r) => r.retryAfterSeconds)) };
}

/**
 * The client's limit first: a client already refused adds no row for the address it tries,
 * so trying a million addresses cannot grow the table by a million rows.
 */
async function clientThenEmail(
  client: { key: string; limit: { limit: number; windowMs: number } },
  email: { key: string; limit: { limit: number; windowMs: number } },
): Promise<LimitCheck> {
  const clientHit = await hitRateLimit(client.key, client.limit);
  if (!clientHit.allowed) return { allowed: false, retryAfterSeconds: clientHit.retryAfterSeconds };
  return check([Promise.resolve(clientHit), hitRateLimit(email.key, email.limit)]);
}

/** Counts a sign-in attempt before the password is checked (so parallel guesses count too). */
export function countSignInAttempt(email: string, ip: string) {
  return clientThenEmail(
    { key: clientKey("signin", ip), limit: AUTH_LIMITS.signInPerClient },
    { key: emailKey("signin", email), limit: AUTH_LIMITS.signInPerEmail },
  );
}

/**
 * After a successful sign-in the address starts afresh and the client gets its attempt back;
 * the client's failed attempts still count, so one valid account cannot wipe them.
 */
export async function forgetSignInAttempts(email: string, ip: string) {
  await Promise.all([resetRateLimit(emailKey("signin", email)), refundRateLimit(clientKey("signin", ip))]);
}

export function countSignUpAttempt(email: string, ip: string) {
  return clientThenEmail(
    { key: clientKey("signup", ip), limit: AUTH_LIMITS.signUpPerClient },
    { key: emailKey("signup", email), limit: AUTH_LIMITS.signUpPerEmail },
  );
}

/** Starting a sign-in with Google or Facebook: each start stores a (10-minute) session. */
export const OAUTH_START_LIMIT = { limit: 10, windowMs: 10 * MINUTE };

export function countOAuthStart(ip: string) {
  return hitRateLimit(`oauth:ip:${ip}`, OAUTH_START_LIMIT);
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
