import type { z } from "zod";
import { createAccountWithPassword, verifyCredentials } from "./accounts.server";
import {
  BUSY_MESSAGE,
  countSignInAttempt,
  countSignUpAttempt,
  forgetSignInAttempts,
  recordSignInFailure,
  refundSignInAttempt,
  slowDownSignIn,
  tooManyAttemptsMessage,
  type LimitCheck,
} from "./auth-limits.server";
import type { SignInSchema, SignUpSchema } from "./auth-schemas";
import { sendVerificationEmail } from "./email-verification.server";
import { PasswordQueueBusy } from "./password.server";
import { getSessionUserById, type SessionUser } from "~/models/user.server";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "~/utils/database-errors.server";
import { errorFields, log } from "~/utils/logger.server";

// The e-mail and password workflows of /auth (issue 23): the route parses the form and maps
// these plain results to its response; nothing here reads a request or knows about HTML.

export const INVALID_CREDENTIALS = "Invalid email or password.";
export const SIGN_UP_REFUSED =
  "We could not create an account with this email. If you already have one, please sign in.";

/** Why the person cannot go on: shown as the form's error and the toast, with this status. */
export type AuthRefusal = { ok: false; status: number; message: string; headers?: Record<string, string> };

function tooMany(limit: Extract<LimitCheck, { allowed: false }>): AuthRefusal {
  return {
    ok: false,
    status: 429,
    message: tooManyAttemptsMessage(limit.retryAfterSeconds),
    headers: { "Retry-After": String(limit.retryAfterSeconds) },
  };
}

/** The password checks are queued beyond a few seconds' wait (decision 055): try again shortly. */
function busy(intent: "signin" | "signup", error: PasswordQueueBusy): AuthRefusal {
  log.warn("auth.password_queue_full", { intent });
  return { ok: false, status: 429, message: BUSY_MESSAGE, headers: { "Retry-After": String(error.retryAfterSeconds) } };
}

export const SIGN_IN_UNAVAILABLE = "We could not sign you in right now. Please try again.";

/**
 * The password could not be checked (the database failed mid-check: a lock timeout, a failover,
 * a dropped connection): a 503 that asks to try again, never a 500, and the attempt given back,
 * so that nothing of it stays stored (issue 35 item 6). The refund is best effort: the database
 * that just failed may refuse it too.
 */
async function checkFailed(email: string, clientKey: string, error: unknown): Promise<AuthRefusal> {
  log.error("auth.signin.check_failed", { ip: clientKey, ...errorFields(error) });
  await refundSignInAttempt(email, clientKey).catch((refundError: unknown) =>
    log.warn("auth.signin.refund_failed", errorFields(refundError)),
  );
  return {
    ok: false,
    status: 503,
    message: SIGN_IN_UNAVAILABLE,
    headers: { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  };
}

/**
 * E-mail and password, the first step of a sign-in: counted against the client's limits
 * before the password is checked, slowed down for an address under attack, and on success
 * the user whose first step is done (the caller finishes it: a session or a second step).
 */
export async function signInWithPassword(
  values: z.infer<typeof SignInSchema>,
  clientKey: string,
): Promise<{ ok: true; user: SessionUser } | AuthRefusal> {
  const { email, password } = values;
  const limit = await countSignInAttempt(email, clientKey);
  if (!limit.allowed) {
    log.warn("auth.signin.limited", { ip: clientKey });
    return tooMany(limit);
  }

  // An address drawing failures from everywhere answers more slowly; it is never refused.
  await slowDownSignIn(email);

  let userId: string | null;
  try {
    userId = await verifyCredentials(email, password);
  } catch (error) {
    if (error instanceof PasswordQueueBusy) {
      // No password was tried: the attempt does not count.
      await refundSignInAttempt(email, clientKey);
      return busy("signin", error);
    }
    return checkFailed(email, clientKey, error);
  }
  if (!userId) {
    await recordSignInFailure(email);
    log.info("auth.signin.failed", { ip: clientKey });
    return { ok: false, status: 401, message: INVALID_CREDENTIALS };
  }

  const user = await getSessionUserById(userId);
  if (!user) throw new Error("Signed-in user vanished");
  await forgetSignInAttempts(email, clientKey);
  return { ok: true, user };
}

/** A new account with a password, and its verification e-mail. */
export async function signUp(
  values: z.infer<typeof SignUpSchema>,
  clientKey: string,
): Promise<{ ok: true; userId: string } | AuthRefusal> {
  const limit = await countSignUpAttempt(values.email, clientKey);
  if (!limit.allowed) return tooMany(limit);

  let created: Awaited<ReturnType<typeof createAccountWithPassword>>;
  try {
    created = await createAccountWithPassword(values);
  } catch (error) {
    if (error instanceof PasswordQueueBusy) return busy("signup", error);
    throw error;
  }
  // Says no more than it must: the address cannot be used, not whose it is.
  if (!created.ok) return { ok: false, status: 400, message: SIGN_UP_REFUSED };
  log.info("auth.signup", { userId: created.userId });
  await sendVerificationEmail(created.userId);
  return { ok: true, userId: created.userId };
}
