// @remix-run/express's createRemixRequest, except that a body already read (and bounded) by
// ./body-limits.js is handed to Remix from memory instead of the spent request stream.
import remixExpress from "@remix-run/express/dist/server.js";

export function createRemixRequest(req, res) {
  if (!Buffer.isBuffer(req.boundedBody)) return remixExpress.createRemixRequest(req, res);
  const streamed = remixExpress.createRemixRequest(Object.assign(Object.create(req), { method: "GET" }), res);
  return new Request(streamed.url, {
    method: req.method,
    headers: streamed.headers,
    signal: streamed.signal,
    body: req.boundedBody,
  });
}
