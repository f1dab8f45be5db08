import type { HeadersFunction } from "@remix-run/node";
import { isPreviewRequest } from "~/content/preview.server";

/**
 * Public pages may be kept briefly by browsers and a CDN, and served stale while the CDN
 * revalidates. Only for visitors without cookies: the shell shows Sign In or Sign Out, so a
 * signed-in page must never be shared.
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=86400";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * Headers for a public page's loader response (document and data requests alike). A preview
 * (drafts) is never public either: the page cache and CDNs skip `private, no-store`.
 */
export function publicCacheHeaders(request: Request): Headers {
  const headers = new Headers({ Vary: "Cookie" });
  const personal = request.headers.has("Cookie") || isPreviewRequest(request);
  headers.set("Cache-Control", personal ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
  return headers;
}

/** The `headers` export of a public page: the loader's caching, unless a cookie is being set. */
export const publicPageHeaders: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) => {
  const headers = new Headers({ Vary: "Cookie" });
  const personal = parentHeaders.has("Set-Cookie") || loaderHeaders.has("Set-Cookie") || errorHeaders !== undefined;
  headers.set(
    "Cache-Control",
    personal ? PRIVATE_CACHE_CONTROL : (loaderHeaders.get("Cache-Control") ?? PRIVATE_CACHE_CONTROL),
  );
  return headers;
};
