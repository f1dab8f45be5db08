import { redirect, type Session } from "@remix-run/node";
import { redirectWithError } from "~/utils/toast.server";
import { getSessionUserById, type SessionUser } from "~/models/user.server";
import { logout, readSignedInSession } from "~/utils/session.server";
import { isUuid } from "~/utils/uuid";
import { withReturnPath } from "~/utils/return-path";
import { staffHome } from "~/features/staff/capabilities";

/**
 * The signed-in user as this session knows them. `secondStepPassed`: this session passed the
 * second step after two-step was (last) turned on (decision 024); a session signed in before
 * enrolment, or with the password alone, never has it.
 */
export type SignedInUser = SessionUser & { secondStepPassed: boolean };

type Lookup = { userId: string | null; user: SignedInUser | null; session: Session };

export function passedSecondStep(user: Pick<SessionUser, "twoStepEnabledAt">, secondStepAt: Date | null) {
  return Boolean(user.twoStepEnabledAt && secondStepAt && secondStepAt.getTime() >= user.twoStepEnabledAt.getTime());
}

async function lookUp(request: Request): Promise<Lookup> {
  const { session, userId, secondStepAt } = await readSignedInSession(request);
  const found = userId && isUuid(userId) ? await getSessionUserById(userId) : null;
  // A deactivated account (decision 123) is signed out on its next request, whatever cookie it holds.
  if (found?.deactivated) return { userId, user: null, session };
  const user = found ? { ...found, secondStepPassed: passedSecondStep(found, secondStepAt) } : null;
  return { userId, user, session };
}

// Remix runs the root's loader and the page's loader for one document request, each with its
// own copy of the Request but the same load context: keyed on that context, the session and the
// user are read once per request, not once per loader. Only for reads (GET/HEAD): after an
// action changed the session, nothing read before it may be reused.
const lookUps = new WeakMap<object, Promise<Lookup>>();

/**
 * The load context of the request, as Remix hands it to every loader and action: required (not
 * optional), so that no loader can forget it and read the session a second time (issue 15: one
 * session and user query per request). Tests that play one request pass a fresh `{}`.
 */
export type RequestContext = object;

function lookUpOnce(request: Request, context: RequestContext): Promise<Lookup> {
  if (request.method !== "GET" && request.method !== "HEAD") return lookUp(request);
  let pending = lookUps.get(context);
  if (!pending) {
    pending = lookUp(request);
    lookUps.set(context, pending);
  }
  return pending;
}

/**
 * The signed-in user, or null. A session whose user was deleted counts as signed out.
 * Loaders pass their `context`, so that one request reads the session once.
 */
export async function getOptionalUser(request: Request, context: RequestContext): Promise<SignedInUser | null> {
  return (await lookUpOnce(request, context)).user;
}

/** requireUser, with the session it was read from (to read or change what else it holds). */
export async function requireUserSession(
  request: Request,
  context: RequestContext,
): Promise<{ user: SignedInUser; session: Session }> {
  const { userId, user, session } = await lookUpOnce(request, context);
  return { user: await signedInOrAway(request, userId, user), session };
}

/**
 * Where the anonymous are sent: /auth, remembering the page they asked for (a link in an
 * e-mail, a bookmark) so that signing in brings them back to it. Only a page read (GET/HEAD)
 * is remembered: a form post cannot be replayed after signing in.
 */
function signInPathFor(request: Request) {
  if (request.method !== "GET" && request.method !== "HEAD") return "/auth";
  const url = new URL(request.url);
  return withReturnPath("/auth", `${url.pathname}${url.search}`);
}

/** Loaders and actions of the portal: the anonymous go to /auth (and come back after). */
export async function requireUser(request: Request, context: RequestContext): Promise<SignedInUser> {
  const { userId, user } = await lookUpOnce(request, context);
  return signedInOrAway(request, userId, user);
}

async function signedInOrAway(request: Request, userId: string | null, user: SignedInUser | null) {
  if (!userId) throw redirect(signInPathFor(request));
  if (!user) throw await logout(request, signInPathFor(request));
  return user;
}

export const TWO_STEP_REQUIRED = {
  message: "Two-step verification required",
  description: "Staff must turn on two-step verification before opening staff pages.",
};

/**
 * Whether this session may act as staff at all: a role, two-step on, and this very session
 * passed its second step since it was turned on (decision 024, for every role since 123). What
 * the role may do is app/features/staff's question; the role alone is never enough.
 */
export function hasStaffSession(user: SignedInUser): boolean {
  return user.isStaff && user.twoStepEnabled && user.secondStepPassed;
}

/**
 * The first half of every staff check (app/features/staff/staff-access.server.ts asks the
 * capability): a customer is sent to their dashboard with the spec's toast; staff without
 * two-step sign-in to /account/security, until it is on; a staff session that never passed
 * the second step (signed in before enrolment) is ended and signs in again.
 */
export async function requireStaffSession(request: Request, context: RequestContext): Promise<SignedInUser> {
  const user = await requireUser(request, context);
  if (!user.isStaff) {
    throw await redirectWithError("/customer-dashboard", {
      message: "Access Denied",
      description: "You don't have admin privileges",
    });
  }
  if (!user.twoStepEnabled) throw await redirectWithError(SECURITY_PATH, TWO_STEP_REQUIRED);
  if (!hasStaffSession(user)) throw await logout(request, signInPathFor(request));
  return user;
}

export const SECURITY_PATH = "/account/security";

/**
 * Where a signed-in user belongs (staff without two-step: where it is turned on, whatever
 * page they asked for). `returnPath`, already checked by `safeReturnPath`, wins otherwise; the
 * page itself still checks the role, so a customer sent to an admin page meets its refusal.
 */
export function homeFor(user: Pick<SessionUser, "staffRole" | "twoStepEnabled">, returnPath?: string | null) {
  if (user.staffRole && !user.twoStepEnabled) return SECURITY_PATH;
  if (returnPath) return returnPath;
  return user.staffRole ? staffHome(user.staffRole) : "/customer-dashboard";
}
