import type { HeadersFunction } from "@remix-run/node";

/**
 * Public pages may be kept briefly by browsers and a CDN, and served stale while the CDN
 * revalidates. Only for visitors without cookies: the shell shows Sign In or Sign Out, so a
 * signed-in page must never be shared. A loader's headers come from publicCacheHeaders
 * (app/content/public-cache.server.ts), which also knows about preview.
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=86400";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

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
