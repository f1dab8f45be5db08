import { redirect } from "@remix-run/node";
import { redirectWithError } from "~/utils/toast.server";
import { getSessionUserById, type SessionUser } from "~/models/user.server";
import { getUserId, logout } from "~/utils/session.server";
import { isUuid } from "~/utils/uuid";

/** The signed-in user, or null. A session whose user was deleted counts as signed out. */
export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  const userId = await getUserId(request);
  if (!userId || !isUuid(userId)) return null;
  return getSessionUserById(userId);
}

/** Loaders and actions of the portal: the anonymous go to /auth. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const userId = await getUserId(request);
  if (!userId) throw redirect("/auth");
  const user = isUuid(userId) ? await getSessionUserById(userId) : null;
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
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
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
