import { normalizeEmail } from "~/models/account.server";
import { hitRateLimit, peekRateLimit, refundRateLimit, resetRateLimit } from "~/models/rate-limit.server";

const MINUTE = 60_000;

// The scheme (docs/decisions/020-limits-that-cannot-lock-anyone-out.md): refusals are keyed on
// the client (alone, or with the address it is guessing), never on the address alone, so
// nobody can lock an owner out by guessing their password from elsewhere. Failures on one
// address from everywhere only slow that address's answers down, a little, for a while.
export const AUTH_LIMITS = {
  /** Guessing one password from one client. */
  signInPerPair: { limit: 5, windowMs: 15 * MINUTE },
  /** Trying many addresses from one client. */
  signInPerClient: { limit: 20, windowMs: 15 * MINUTE },
  /** Failures on one address from anywhere: beyond `after`, each answer waits `stepMs` more, up to `maxMs`. */
  signInSlowdown: { after: 10, stepMs: 250, maxMs: 3_000, windowMs: 15 * MINUTE },
  signUpPerEmail: { limit: 5, windowMs: 60 * MINUTE },
  signUpPerClient: { limit: 10, windowMs: 60 * MINUTE },
  /** "Resend verification e-mail": per account and per client. */
  resendPerUser: { limit: 3, windowMs: 60 * MINUTE },
  resendPerClient: { limit: 10, windowMs: 60 * MINUTE },
  /** "Send reset link": per client, and per address (which only stops more mail, never a reset). */
  resetPerClient: { limit: 10, windowMs: 60 * MINUTE },
  resetMailsPerEmail: { limit: 3, windowMs: 60 * MINUTE },
} as const;

export type LimitCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const address = (email: string) => normalizeEmail(email).toLowerCase();
const keys = {
  signInPair: (email: string, ip: string) => `signin:pair:${ip}:${address(email)}`,
  signInClient: (ip: string) => `signin:ip:${ip}`,
  signInFailures: (email: string) => `signin:failures:${address(email)}`,
  signUpEmail: (email: string) => `signup:email:${address(email)}`,
  signUpClient: (ip: string) => `signup:ip:${ip}`,
};

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
    { key: keys.signInClient(ip), limit: AUTH_LIMITS.signInPerClient },
    { key: keys.signInPair(email, ip), limit: AUTH_LIMITS.signInPerPair },
  );
}

/** How long to hold the answer for this address: 0 until it has drawn many failures. */
export async function signInDelayMs(email: string): Promise<number> {
  const { after, stepMs, maxMs, windowMs } = AUTH_LIMITS.signInSlowdown;
  const failures = await peekRateLimit(keys.signInFailures(email), windowMs);
  return Math.min(maxMs, Math.max(0, failures - after) * stepMs);
}

let sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Tests record the delays instead of waiting them out. */
export function setSleepForTests(replacement: ((ms: number) => Promise<void>) | undefined) {
  sleep = replacement ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

/** Holds a sign-in answer for an address under attack (never refuses it). */
export async function slowDownSignIn(email: string) {
  const delay = await signInDelayMs(email);
  if (delay > 0) await sleep(delay);
}

/** A wrong password: counts against the address's slowdown (the pair was counted already). */
export async function recordSignInFailure(email: string) {
  const { windowMs } = AUTH_LIMITS.signInSlowdown;
  await hitRateLimit(keys.signInFailures(email), { limit: Number.MAX_SAFE_INTEGER, windowMs });
}

/**
 * A right password: this client's guesses at this address are forgotten and the client gets
 * its attempt back. Its other failed attempts still count, and so do the address's failures
 * from elsewhere (an owner signing in daily must not wipe an attack's slowdown).
 */
export async function forgetSignInAttempts(email: string, ip: string) {
  await Promise.all([resetRateLimit(keys.signInPair(email, ip)), refundRateLimit(keys.signInClient(ip))]);
}

export function countSignUpAttempt(email: string, ip: string) {
  return clientThenEmail(
    { key: keys.signUpClient(ip), limit: AUTH_LIMITS.signUpPerClient },
    { key: keys.signUpEmail(email), limit: AUTH_LIMITS.signUpPerEmail },
  );
}

/** Starting a sign-in with Google or Facebook: each start stores a (10-minute) session. */
export const OAUTH_START_LIMIT = { limit: 10, windowMs: 10 * MINUTE };

export function countOAuthStart(ip: string) {
  return hitRateLimit(`oauth:ip:${ip}`, OAUTH_START_LIMIT);
}

export function countResendAttempt(userId: string, ip: string) {
  return check([
    hitRateLimit(`resend:user:${userId}`, AUTH_LIMITS.resendPerUser),
    hitRateLimit(`resend:ip:${ip}`, AUTH_LIMITS.resendPerClient),
  ]);
}

export function countResetRequest(ip: string) {
  return check([hitRateLimit(`reset:ip:${ip}`, AUTH_LIMITS.resetPerClient)]);
}

/** Whether another reset e-mail may go to this address this hour (counted for unknown addresses too). */
export async function mayMailResetLink(email: string) {
  return (await hitRateLimit(`reset:email:${address(email)}`, AUTH_LIMITS.resetMailsPerEmail)).allowed;
}

export const BUSY_MESSAGE = "We are busy right now. Please try again in a few seconds.";

/** A sign-in the password queue turned away (decision 055) tried no password: it does not count. */
export async function refundSignInAttempt(email: string, ip: string) {
  await Promise.all([refundRateLimit(keys.signInPair(email, ip)), refundRateLimit(keys.signInClient(ip))]);
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
