// The web Request Remix handles, made from Express's request with public APIs only (Express's
// own request fields and @remix-run/node's stream adapter), as @remix-run/express makes it, except
// that a body already read (and bounded) by ./body-limits.js is handed over from memory instead
// of the spent request stream. (decision 014: no import of a package's private dist/ files.)
import { createReadableStreamFromReadable } from "@remix-run/node";

/** The URL as the client asked for it: protocol and host as Express reads them behind the proxy. */
function requestUrl(req) {
  // req.hostname drops the port: take it from X-Forwarded-Host or Host, as Remix's adapter does.
  const portOf = (header) => Number.parseInt(req.get(header)?.split(":")[1] ?? "", 10);
  const port = [portOf("X-Forwarded-Host"), portOf("host")].find(Number.isSafeInteger);
  // req.hostname and req.protocol respect the "trust proxy" setting; originalUrl is the full path.
  return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
}

/**
 * The path Remix will route for `req`: its URL's pathname, where `..` and `.` segments (also as
 * `%2e%2e`, `.%2E`...) are resolved and backslashes are slashes, as WHATWG URLs resolve them;
 * a double slash stays (Remix's router does not merge it: `//logout` is the 404 route). The
 * guards in front of Remix (cross-site, body limits) decide on this, never on the raw path:
 * `/resources/webhooks/../../customer-dashboard/billing` is the billing page, whatever its first
 * segments say. Null when the request makes no URL (Remix would refuse it too).
 */
export function routedPathname(req) {
  try {
    return requestUrl(req).pathname;
  } catch {
    return null;
  }
}

function requestHeaders(req) {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(name, value);
    else headers.set(name, values);
  }
  return headers;
}

/**
 * The Request for `req`. Its signal aborts when the client goes away before the response is
 * finished (`close` without `finish`), so loaders and actions stop working for nobody.
 */
export function createRemixRequest(req, res) {
  let controller = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init = { method: req.method, headers: requestHeaders(req), signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = Buffer.isBuffer(req.boundedBody) ? req.boundedBody : createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(requestUrl(req).href, init);
}
