import type { HeadersFunction } from "@remix-run/node";

/**
 * Wraps the /contact page's `headers`: a rejected quote post (400, 429) is one visitor's page,
 * never cached, and a 429 keeps its Retry-After (Remix builds document headers from this
 * function, not from the action's response). Not a .server module: the route's `headers` export
 * is evaluated in the browser bundle too.
 */
export function withQuoteActionHeaders(pageHeaders: HeadersFunction): HeadersFunction {
  return (args) => {
    const headers = new Headers(pageHeaders(args));
    const retryAfter = args.actionHeaders.get("Retry-After");
    if (retryAfter) headers.set("Retry-After", retryAfter);
    if (args.actionHeaders.has("Content-Type")) headers.set("Cache-Control", "private, no-store");
    return headers;
  };
}
