import { redirect } from "@remix-run/node";
import { homeFor } from "./auth.server";
import { clearChallengeCookie, startSignInChallenge } from "./two-step.server";
import type { SessionUser } from "~/models/user.server";
import { log } from "~/utils/logger.server";
import { createUserSessionHeaders, destroySessionHeaders, getSession } from "~/utils/session.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";
import { safeReturnPath, withReturnPath } from "~/utils/return-path";

export const TWO_STEP_PATH = "/auth/verify";

/**
 * The end of every first step (a right password, or Google/Facebook): with two-step on, no
 * session yet, only a challenge for /auth/verify; without, a brand-new session.
 */
export async function finishFirstStep(
  request: Request,
  user: SessionUser,
  method: string,
  returnPath?: string | null,
): Promise<Response> {
  if (user.deactivated) return refuseDeactivated(user, method);
  if (user.twoStepEnabled) {
    // Whatever session the browser had (an OAuth round trip's, say) ends here too.
    const headers = await destroySessionHeaders(await getSession(request));
    headers.append("Set-Cookie", await startSignInChallenge(user.id));
    log.info("auth.signin.second_step", { userId: user.id, method });
    return redirect(withReturnPath(TWO_STEP_PATH, returnPath), { headers });
  }
  return startSession(request, user, method, returnPath);
}

/**
 * The end of a second step passed at /auth/verify: the new session records when (decision
 * 081), which is what admin pages ask of it.
 */
export function finishSecondStep(request: Request, user: SessionUser, returnPath?: string | null) {
  // The code was checked against the enrolment of `twoStepEnabledAt` (the database's clock):
  // never record an earlier time, whatever this machine's clock says.
  const enabledAt = user.twoStepEnabledAt?.getTime() ?? 0;
  return startSession(request, user, "password+totp", returnPath, new Date(Math.max(Date.now(), enabledAt)));
}

/** What a new session's page says. */
const WELCOME_BACK = { message: "Welcome back!", description: "You've been logged in successfully." };

/**
 * A customer who set their first password through the link of an account made for them
 * (decision 096): signed in at once, on their dashboard. An account with two-step sign-in (it
 * cannot be a fresh one, but the link may be old) still passes its second step first.
 */
export async function signInAfterPasswordSet(request: Request, user: SessionUser): Promise<Response> {
  if (user.twoStepEnabled) return finishFirstStep(request, user, "set-password");
  return startSession(request, user, "set-password", null, undefined, {
    message: "Welcome!",
    description: "Your password is set and you're signed in.",
  });
}

export const ACCOUNT_DEACTIVATED = {
  message: "Account deactivated",
  description: "This account has been deactivated. Ask the business's owner if you need it again.",
};

/**
 * A deactivated staff account (decision 123) signs in nowhere: every way in (a password, Google
 * or Facebook, a second step, a set-password or reset link) ends in finishFirstStep or
 * startSession, and both send it back to /auth with no session.
 */
async function refuseDeactivated(user: SessionUser, method: string) {
  log.warn("auth.signin.deactivated", { userId: user.id, method });
  return redirectWithError("/auth", ACCOUNT_DEACTIVATED);
}

/** A brand-new session id at every sign-in (remix-auth v3 would reuse the visitor's). */
async function startSession(
  request: Request,
  user: SessionUser,
  method: string,
  returnPath?: string | null,
  secondStepAt?: Date,
  toast = WELCOME_BACK,
): Promise<Response> {
  if (user.deactivated) return refuseDeactivated(user, method);
  log.info("auth.signin", { userId: user.id, method });
  const headers = await createUserSessionHeaders(request, user.id, { secondStepAt });
  headers.append("Set-Cookie", await clearChallengeCookie());
  return redirectWithSuccess(homeFor(user, safeReturnPath(returnPath)), toast, { headers });
}
