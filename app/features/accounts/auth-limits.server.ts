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

/** Counts a sign-in attempt before the password is checked (so parallel guesses count too). */
export function countSignInAttempt(email: string, ip: string) {
  return check([
    hitRateLimit(emailKey("signin", email), AUTH_LIMITS.signInPerEmail),
    hitRateLimit(clientKey("signin", ip), AUTH_LIMITS.signInPerClient),
  ]);
}

/**
 * After a successful sign-in the address starts afresh and the client gets its attempt back;
 * the client's failed attempts still count, so one valid account cannot wipe them.
 */
export async function forgetSignInAttempts(email: string, ip: string) {
  await Promise.all([resetRateLimit(emailKey("signin", email)), refundRateLimit(clientKey("signin", ip))]);
}

export function countSignUpAttempt(email: string, ip: string) {
  return check([
    hitRateLimit(emailKey("signup", email), AUTH_LIMITS.signUpPerEmail),
    hitRateLimit(clientKey("signup", ip), AUTH_LIMITS.signUpPerClient),
  ]);
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
