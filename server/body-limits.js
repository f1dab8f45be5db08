// Bounded request bodies, decided before Remix runs: every body is limited while it streams,
// a declared Content-Length over the limit is refused before a byte is read, webhooks must
// carry their signature header before their body is read, and anonymous uploads are refused
// before their body. Form and webhook bodies (small by definition) are read here, up to their
// limit, and handed to Remix from memory; uploads stream on to the route's own 50 MB limit.
import getRawBody from "raw-body";
import { routedPathname } from "./remix-request.js";

export const FORM_LIMIT_BYTES = 64 * 1024;
export const WEBHOOK_LIMIT_BYTES = 256 * 1024;
/** The 50 MB file plus room for the multipart envelope and the form's other fields. */
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024 + 64 * 1024;

/**
 * Webhook routes and the header each must carry. Everything under /resources/webhooks/ is a
 * webhook (the calendar providers' routes will live there) and gets the webhook limit by
 * prefix; one that is not listed must still carry one of the known signature headers.
 */
export const WEBHOOK_SIGNATURE_HEADERS = {
  "/resources/sanity-webhook": ["sanity-webhook-signature"],
  "/resources/webhooks/cal-com": ["x-cal-signature-256"],
  "/resources/webhooks/calendly": ["calendly-webhook-signature"],
  "/resources/webhooks/twilio": ["x-twilio-signature"],
  "/resources/webhooks/stripe": ["stripe-signature"],
};
const WEBHOOK_PREFIX = "/resources/webhooks/";
const ALL_SIGNATURE_HEADERS = [...new Set(Object.values(WEBHOOK_SIGNATURE_HEADERS).flat())];

/** Routes whose multipart posts are file uploads (streamed, never buffered here). */
export const UPLOAD_PATHS = ["/resources/media-upload", "/resources/offline-change"];
const SESSION_COOKIE = "__session";

// What an HTML form can send. Anything else to a page is refused with 400.
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

const mediaType = (req) => (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();

function stripTrailingSlash(path) {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** "upload", "webhook" or "form": which limit a request's body falls under. */
export function bodyKind(req) {
  // The path Remix will route (./remix-request.js): a raw `/resources/webhooks/../../x` is `/x`.
  const path = stripTrailingSlash(routedPathname(req) ?? "");
  if (path in WEBHOOK_SIGNATURE_HEADERS || path.startsWith(WEBHOOK_PREFIX)) return "webhook";
  if (UPLOAD_PATHS.includes(path) && mediaType(req) === "multipart/form-data") return "upload";
  return "form";
}

export function limitFor(kind) {
  return kind === "upload" ? UPLOAD_LIMIT_BYTES : kind === "webhook" ? WEBHOOK_LIMIT_BYTES : FORM_LIMIT_BYTES;
}

function signatureHeadersFor(path) {
  return WEBHOOK_SIGNATURE_HEADERS[stripTrailingSlash(path)] ?? ALL_SIGNATURE_HEADERS;
}

function hasCookie(req, name) {
  return (req.headers.cookie ?? "").split(";").some((pair) => pair.trim().startsWith(`${name}=`));
}

/**
 * Answers without reading the body: the connection is closed afterwards, so the client's
 * unread bytes are never read (nor buffered) by the server.
 */
export function refuseUnread(res, status, message, { json = false, headers = {} } = {}) {
  res.set({ Connection: "close", "Cache-Control": "no-store", ...headers });
  if (json) res.status(status).json({ message });
  else res.status(status).type("text/plain").send(message);
}

export const TOO_LARGE_MESSAGE = "Request body too large";
export const UPLOAD_TOO_LARGE_MESSAGE =
  "File Too Large: the maximum file size is 50MB. Go back to choose a smaller file.";

export function boundedBodies() {
  return async function boundedBodiesMiddleware(req, res, next) {
    if (req.method !== "POST") return next();
    const kind = bodyKind(req);
    const limit = limitFor(kind);
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limit) {
      // Without JavaScript the browser sends a too-large file anyway (the page's script stops it
      // before sending): the admin reads this short message, with the limit.
      return refuseUnread(res, 413, kind === "upload" ? UPLOAD_TOO_LARGE_MESSAGE : TOO_LARGE_MESSAGE);
    }
    if (kind === "upload") {
      // The route checks the session; a visitor with no session at all cannot be an admin.
      if (!hasCookie(req, SESSION_COOKIE)) return refuseUnread(res, 401, "Sign in to upload files");
      return next();
    }
    if (kind === "webhook") {
      if (!signatureHeadersFor(routedPathname(req) ?? "").some((name) => req.headers[name])) {
        return refuseUnread(res, 401, "Missing signature", { json: true });
      }
    } else {
      const type = mediaType(req);
      const empty = declared === "0" || (declared === undefined && !req.headers["transfer-encoding"]);
      if (!empty && !FORM_TYPES.includes(type)) {
        return refuseUnread(res, 400, "Unsupported body type: send an HTML form");
      }
    }
    try {
      // raw-body stops reading, and errors, as soon as the limit is passed.
      req.boundedBody = await getRawBody(req, { limit, length: declared });
    } catch (error) {
      if (error?.type === "entity.too.large") return refuseUnread(res, 413, TOO_LARGE_MESSAGE);
      // Aborted, length mismatch, bad encoding: the client sent something we cannot read.
      return refuseUnread(res, 400, "Bad request body");
    }
    next();
  };
}
