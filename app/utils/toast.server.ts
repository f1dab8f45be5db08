import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { BACKGROUND_FETCH_HEADER } from "./background-fetch";
import { getEnv } from "./env.server";

// remix-toast v1's built-in cookie neither signs nor verifies (its `unsign` only strips the
// dot), so anyone could forge a toast. Remix's own cookie session storage, signed with the
// app's secret, replaces it; a forged or tampered cookie is ignored.
type ToastUtils = ReturnType<typeof createToastUtilsWithCustomSession>;
let utils: ToastUtils | undefined;
function toastUtils(): ToastUtils {
  if (!utils) {
    const env = getEnv();
    utils = createToastUtilsWithCustomSession(
      createCookieSessionStorage({
        cookie: {
          name: "toast-session",
          secrets: [env.SESSION_SECRET],
          secure: env.NODE_ENV === "production",
          sameSite: "lax",
          httpOnly: true,
          path: "/",
        },
      }),
    );
  }
  return utils;
}

export const jsonWithError: ToastUtils["jsonWithError"] = (...args) => toastUtils().jsonWithError(...args);
export const jsonWithSuccess: ToastUtils["jsonWithSuccess"] = (...args) => toastUtils().jsonWithSuccess(...args);
export const jsonWithToast: ToastUtils["jsonWithToast"] = (...args) => toastUtils().jsonWithToast(...args);
export const redirectWithError: ToastUtils["redirectWithError"] = (...args) => toastUtils().redirectWithError(...args);
export const redirectWithInfo: ToastUtils["redirectWithInfo"] = (...args) => toastUtils().redirectWithInfo(...args);
export const redirectWithSuccess: ToastUtils["redirectWithSuccess"] = (...args) =>
  toastUtils().redirectWithSuccess(...args);
export const redirectWithToast: ToastUtils["redirectWithToast"] = (...args) => toastUtils().redirectWithToast(...args);
export const redirectWithWarning: ToastUtils["redirectWithWarning"] = (...args) =>
  toastUtils().redirectWithWarning(...args);
export type { ToastMessage } from "remix-toast";

/**
 * The pending toast, if any. Requests without the flash cookie get no Set-Cookie header, so
 * public pages stay cacheable. A page the staff app fetches in the background leaves the toast
 * for the page being opened (and keeps none in its offline copy).
 */
export async function getToast(request: Request) {
  if (!request.headers.get("Cookie")?.includes("toast-session=") || request.headers.has(BACKGROUND_FETCH_HEADER)) {
    return { toast: undefined, headers: new Headers() };
  }
  return toastUtils().getToast(request);
}
