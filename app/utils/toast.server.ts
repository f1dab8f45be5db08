import { getToast as readToast, setToastCookieOptions } from "remix-toast";
import { getEnv } from "./env.server";

// The flash cookie is signed with the app's secret (remix-toast's default secret is public).
const env = getEnv();
setToastCookieOptions({
  secrets: [env.SESSION_SECRET],
  secure: env.NODE_ENV === "production",
  sameSite: "lax",
  httpOnly: true,
  path: "/",
});

export {
  jsonWithError,
  jsonWithSuccess,
  jsonWithToast,
  redirectWithError,
  redirectWithInfo,
  redirectWithSuccess,
  redirectWithToast,
  redirectWithWarning,
} from "remix-toast";
export type { ToastMessage } from "remix-toast";

/**
 * The pending toast, if any. Requests without the flash cookie get no Set-Cookie header, so
 * public pages stay cacheable.
 */
export async function getToast(request: Request) {
  if (!request.headers.get("Cookie")?.includes("toast-session=")) return { toast: undefined, headers: new Headers() };
  return readToast(request);
}
