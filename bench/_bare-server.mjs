// The yardstick: a bare node:http server that answers each path with bytes read once from a
// folder (what a static file server does at best), with the same headers as the app sent.
// Files: <dir>/<index>.<identity|gzip>, with <dir>/routes.json mapping paths to indexes and
// to the headers of each variant.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

const [dir, port] = process.argv.slice(2);
const routes = JSON.parse(readFileSync(path.join(dir, "routes.json"), "utf8"));
const pages = new Map(
  Object.entries(routes).map(([pathname, { index, headers }]) => [
    pathname,
    {
      identity: { body: readFileSync(path.join(dir, `${index}.identity`)), headers: headers.identity },
      gzip: { body: readFileSync(path.join(dir, `${index}.gzip`)), headers: headers.gzip },
    },
  ]),
);
http
  .createServer((req, res) => {
    const page = pages.get(req.url);
    if (!page) return void res.writeHead(404).end();
    const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    const variant = gzip ? page.gzip : page.identity;
    res.writeHead(200, variant.headers);
    res.end(variant.body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
