import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getToast, type ToastMessage } from "~/utils/toast.server";

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

export type CallOptions = {
  cookie?: string;
  params?: Record<string, string>;
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  form?: Record<string, string>;
};

/**
 * Calls a route's loader or action the way Remix does, with a real Request, and returns the
 * Response whether it was returned or thrown (redirects are thrown by requireUser & co).
 */
export async function callRoute(handler: Handler, url: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body = options.body ?? null;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  const method = options.method ?? (body !== null || options.form ? "POST" : "GET");
  const request = new Request(new URL(url, "http://localhost"), {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  try {
    const result = await handler({ request, params: options.params ?? {}, context: {} });
    if (result instanceof Response) return result;
    throw new Error(`Route returned a non-Response: ${JSON.stringify(result)}`);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

/** The flash toast a response sets, as the next page would read it. */
export async function toastOf(response: Response): Promise<ToastMessage | undefined> {
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (cookies.length === 0) return undefined;
  const { toast } = await getToast(new Request("http://localhost/", { headers: { Cookie: cookies.join("; ") } }));
  return toast;
}

export function locationOf(response: Response) {
  return response.headers.get("Location");
}
