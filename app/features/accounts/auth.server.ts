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

/** Admin-only loaders and actions: a customer is sent to their dashboard with the spec's toast. */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) {
    throw await redirectWithError("/customer-dashboard", {
      message: "Access Denied",
      description: "You don't have admin privileges",
    });
  }
  return user;
}

/** Where a signed-in user belongs. */
export function homeFor(user: Pick<SessionUser, "isAdmin">) {
  return user.isAdmin ? "/admin-dashboard" : "/customer-dashboard";
}
