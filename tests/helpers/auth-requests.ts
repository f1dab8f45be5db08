import { getToast } from "~/utils/toast.server";

export const ORIGIN = "http://localhost:3000";

/** A form POST as a browser without JavaScript sends it. */
export function formPost(path: string, fields: Record<string, string>, options: { cookie?: string; ip?: string } = {}) {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (options.cookie) headers.set("Cookie", options.cookie);
  if (options.ip) headers.set("X-Forwarded-For", options.ip);
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

export function get(path: string, options: { cookie?: string } = {}) {
  return new Request(path.startsWith("http") ? path : `${ORIGIN}${path}`, {
    headers: options.cookie ? { Cookie: options.cookie } : {},
  });
}

/** Loaders and actions throw redirects; tests want the Response either way. */
export async function settle(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    throw new Error(`Expected a Response, got ${JSON.stringify(result)}`);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

/** The "name=value" pair of a cookie the response sets, or undefined. */
export function setCookie(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`));
}

/** The flash toast a response carries, read back the way the root loader reads it. */
export async function toastOf(response: Response) {
  const cookie = setCookie(response, "toast-session");
  if (!cookie) return undefined;
  const { toast } = await getToast(new Request(ORIGIN, { headers: { Cookie: cookie } }));
  return toast;
}

/**
 * The second step of a sign-in, as a person with the authenticator app would do it: the
 * challenge cookie the first step set, and the code for `secret` now (or `code`).
 */
export async function completeSecondStep(
  firstStep: Response,
  secret: string,
  options: { code?: string; fields?: Record<string, string> } = {},
): Promise<Response> {
  const { action } = await import("~/routes/auth_.verify");
  const { totpCode } = await import("./totp");
  const challenge = setCookie(firstStep, "__two_step");
  if (!challenge) throw new Error(`The first step set no challenge (status ${firstStep.status})`);
  const fields = { code: options.code ?? totpCode(secret), ...options.fields };
  const request = formPost("/auth/verify", fields, { cookie: challenge });
  return settle(() => action({ request, params: {}, context: {} }));
}
