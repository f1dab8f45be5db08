import { redirect } from "@remix-run/node";
import { redirectWithError } from "~/utils/toast.server";
import { getSessionUserById, type SessionUser } from "~/models/user.server";
import { getUserId, logout } from "~/utils/session.server";
import { isUuid } from "~/utils/uuid";

type Lookup = { userId: string | null; user: SessionUser | null };

async function lookUp(request: Request): Promise<Lookup> {
  const userId = await getUserId(request);
  const user = userId && isUuid(userId) ? await getSessionUserById(userId) : null;
  return { userId, user };
}

// Remix runs the root's loader and the page's loader for one document request, each with its
// own copy of the Request but the same load context: keyed on that context, the session and the
// user are read once per request, not once per loader. Only for reads (GET/HEAD): after an
// action changed the session, nothing read before it may be reused.
const lookUps = new WeakMap<object, Promise<Lookup>>();

function lookUpOnce(request: Request, context?: object): Promise<Lookup> {
  if (!context || (request.method !== "GET" && request.method !== "HEAD")) return lookUp(request);
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
export async function getOptionalUser(request: Request, context?: object): Promise<SessionUser | null> {
  return (await lookUpOnce(request, context)).user;
}

/** Loaders and actions of the portal: the anonymous go to /auth. */
export async function requireUser(request: Request, context?: object): Promise<SessionUser> {
  const { userId, user } = await lookUpOnce(request, context);
  if (!userId) throw redirect("/auth");
  if (!user) throw await logout(request, "/auth");
  return user;
}

export const TWO_STEP_REQUIRED = {
  message: "Two-step verification required",
  description: "Admins must turn on two-step verification before opening admin pages.",
};

/**
 * Admin-only loaders and actions: a customer is sent to their dashboard with the spec's toast;
 * an admin without two-step sign-in to /account/security, until it is on.
 */
export async function requireAdmin(request: Request, context?: object): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (!user.isAdmin) {
    throw await redirectWithError("/customer-dashboard", {
      message: "Access Denied",
      description: "You don't have admin privileges",
    });
  }
  if (!user.twoStepEnabled) throw await redirectWithError(SECURITY_PATH, TWO_STEP_REQUIRED);
  return user;
}

export const SECURITY_PATH = "/account/security";

/** Where a signed-in user belongs (an admin without two-step: where it is turned on). */
export function homeFor(user: Pick<SessionUser, "isAdmin" | "twoStepEnabled">) {
  if (user.isAdmin) return user.twoStepEnabled ? "/admin-dashboard" : SECURITY_PATH;
  return "/customer-dashboard";
}
