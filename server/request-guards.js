// Requests the app cannot route are answered here, before static files or Remix see them:
// methods no route implements (405) and URLs Remix would fail to decode (400). Without this,
// `PUT /auth`, `TRACE /` or `GET /%` reached Remix and answered 500.

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"];

/** Whether `pathname` and the Host make a URL that decodes: Remix decodes both. */
export function isDecodableUrl(pathname, host) {
  try {
    const decoded = decodeURIComponent(pathname);
    // "/%5C…" decodes to "/\…", which URL parsers read as "//host": Remix's router then throws.
    if (/^[/\\]{2}/.test(decoded)) return false;
    // createRemixRequest builds `new URL(protocol://host + originalUrl)`; a bad Host throws there.
    new URL(`http://${host ?? "localhost"}${pathname}`);
    return true;
  } catch {
    return false;
  }
}

/** Form bodies in a charset the platform's form parser cannot read (it throws on UTF-16). */
const READABLE_CHARSETS = ["utf-8", "utf8", "us-ascii", "iso-8859-1", "latin1"];
export function hasUnreadableFormCharset(contentType) {
  if (!contentType) return false;
  const [type, ...params] = contentType.toLowerCase().split(";");
  if (!["application/x-www-form-urlencoded", "multipart/form-data"].includes(type.trim())) return false;
  const charset = params.map((p) => p.trim()).find((p) => p.startsWith("charset="));
  if (!charset) return false;
  return !READABLE_CHARSETS.includes(charset.slice("charset=".length).replace(/"/g, "").trim());
}

export function requestGuards() {
  return function requestGuardsMiddleware(req, res, next) {
    if (!ALLOWED_METHODS.includes(req.method)) {
      res.set({ Allow: ALLOWED_METHODS.join(", "), Connection: "close", "Cache-Control": "no-store" });
      return void res.status(405).type("text/plain").send("Method Not Allowed");
    }
    const pathname = req.originalUrl.split("?")[0];
    if (!isDecodableUrl(pathname, req.headers.host)) {
      res.set({ Connection: "close", "Cache-Control": "no-store" });
      return void res.status(400).type("text/plain").send("Bad Request");
    }
    if (hasUnreadableFormCharset(req.headers["content-type"])) {
      res.set({ Connection: "close", "Cache-Control": "no-store" });
      return void res.status(400).type("text/plain").send("Send forms in UTF-8.");
    }
    next();
  };
}
