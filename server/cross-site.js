// Refuses state-changing requests that another site started, before Remix runs. Remix checks
// the Origin of document POSTs only (and answers its refusal with a 500), not of `?_data`
// requests, so without this a form on another site could sign a visitor into the attacker's
// account (login CSRF), sign them out, or write with an admin's cookie from a sibling subdomain.

import { routedPathname } from "./remix-request.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Called by other servers, which prove themselves with a signature instead. Matched against the
 * path Remix routes (./remix-request.js), one plain segment after /resources/webhooks/: nothing
 * else can be reached through an exempt path.
 */
const EXEMPT = [/^\/resources\/webhooks\/[a-z0-9-]+\/?$/, /^\/resources\/sanity-webhook\/?$/];

/**
 * Whether a request came from another site (or from no site at all: `Origin: null` is what a
 * sandboxed frame or a privacy-redirected form sends). Without an Origin header, the
 * browser's Sec-Fetch-Site says; without either, it is not a browser request from another site.
 * @param {{ method: string; path: string; headers: Record<string, string | string[] | undefined> }} req
 * @param {string[]} ownOrigins
 */
export function isCrossSiteWrite(req, ownOrigins) {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  if (EXEMPT.some((pattern) => pattern.test(req.path))) return false;
  const origin = req.headers.origin;
  if (isOwnNoReferrerPost(req)) return false;
  if (typeof origin === "string") return !ownOrigins.includes(origin.toLowerCase());
  const fetchSite = req.headers["sec-fetch-site"];
  return fetchSite === "cross-site" || fetchSite === "same-site";
}

/**
 * A post from one of our own pages that sends `Referrer-Policy: no-referrer` (the token pages):
 * the browser then writes `Origin: null`, but its Sec-Fetch-Site, which no page can set, still
 * says "same-origin". Another site's post (a sandboxed frame, a no-referrer page) says
 * "cross-site" or "same-site" and stays refused; so does `Origin: null` without Sec-Fetch-Site.
 * @param {{ headers: Record<string, string | string[] | undefined> }} req
 */
function isOwnNoReferrerPost(req) {
  return req.headers.origin === "null" && req.headers["sec-fetch-site"] === "same-origin";
}

/**
 * Express middleware. The page's own origin is the one the request's host names (X-Forwarded-Host,
 * else Host): exactly what Remix checks, so that no post it would refuse with a 500 reaches it.
 * SITE_URL's origin counts only for a request without any host header.
 * @param {{ siteUrl: string }} options
 */
export function refuseCrossSiteWrites({ siteUrl }) {
  const siteOrigin = new URL(siteUrl).origin.toLowerCase();
  return (req, res, next) => {
    // The host Remix compares the Origin with (its own check throws, a 500, on a mismatch):
    // X-Forwarded-Host's first entry, else Host. Only an Origin naming that host goes on.
    const forwarded = String(req.headers["x-forwarded-host"] ?? "")
      .split(",")[0]
      .trim();
    const host = (forwarded || req.headers.host || "").toLowerCase();
    const own = host ? [`http://${host}`, `https://${host}`] : [siteOrigin];
    // The path Remix will route, not the raw one: a raw `/resources/webhooks/../../x` is `/x`.
    const routed = { method: req.method, path: routedPathname(req) ?? "", headers: req.headers };
    if (!isCrossSiteWrite(routed, own)) {
      // Remix compares any Origin but a missing one with the host and would throw on "null".
      if (isOwnNoReferrerPost(req)) delete req.headers.origin;
      return next();
    }
    res
      .status(403)
      .type("text/html")
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused</title></head>' +
          "<body><main><h1>Request refused</h1><p>This form was sent from another website, so it was not processed." +
          ' <a href="/">Go to the home page</a> and try again from there.</p></main></body></html>',
      );
  };
}
