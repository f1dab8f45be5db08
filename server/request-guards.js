// Requests the app cannot route are answered here, before static files or Remix see them:
// methods no route implements (405) and URLs Remix would fail to decode (400). Without this,
// `PUT /auth`, `TRACE /` or `GET /%` reached Remix and answered 500.

export const ALLOWED_METHODS = ["GET", "HEAD", "POST"];

/** Whether `pathname` and the Host make a URL that decodes: Remix decodes both. */
export function isDecodableUrl(pathname, host) {
  try {
    decodeURIComponent(pathname);
    // createRemixRequest builds `new URL(protocol://host + originalUrl)`; a bad Host throws there.
    new URL(`http://${host ?? "localhost"}${pathname}`);
    return true;
  } catch {
    return false;
  }
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
    next();
  };
}
