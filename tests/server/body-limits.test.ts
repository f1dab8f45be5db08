import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { boundedBodies, FORM_LIMIT_BYTES, WEBHOOK_LIMIT_BYTES } from "../../server/body-limits.js";
import { createRemixRequest } from "../../server/remix-request.js";
import { requestGuards } from "../../server/request-guards.js";

// The real middleware in front of a handler that reports what reached it, on loopback.
let server: http.Server;
let port: number;
const reached: { path: string; bytes: number }[] = [];

beforeAll(async () => {
  const app = express();
  app.use(requestGuards(), boundedBodies());
  app.all("*", async (req, res) => {
    const request = createRemixRequest(req, res);
    const bytes = request.body ? (await request.arrayBuffer()).byteLength : 0;
    reached.push({ path: req.path, bytes });
    res.json({ bytes, method: request.method, url: request.url });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

type Sent = { status: number; body: string; bytesSent: number };

/**
 * One raw HTTP request. `declaredLength` may lie (a client announcing 1 GB); `chunks` are
 * written one by one and writing stops once the server has answered.
 */
function send(options: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  declaredLength?: number;
  chunks?: Buffer[];
}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.declaredLength !== undefined) headers["Content-Length"] = options.declaredLength;
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: options.method ?? "POST",
      path: options.path,
      headers,
    });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, bytesSent }));
    });
    // The server may close the connection while we are still sending: that is the point.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    req.flushHeaders();
    (async () => {
      for (const chunk of options.chunks ?? []) {
        if (answered || req.destroyed) break;
        bytesSent += chunk.byteLength;
        if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
      }
      if (options.declaredLength === undefined || bytesSent === options.declaredLength) req.end();
    })().catch(() => undefined);
  });
}

const form = { "Content-Type": "application/x-www-form-urlencoded" };
const kb = (n: number) => Buffer.alloc(n * 1024, "a");

describe("methods and URLs", () => {
  test.each(["PUT", "TRACE", "DELETE", "PATCH", "OPTIONS"])("%s answers 405 with Allow", async (method) => {
    const res = await send({ method, path: "/auth" });
    expect(res.status).toBe(405);
  });

  test.each(["/%", "/services/%zz", "/services/%ED%A0%80", "/resources/media/%", "/%E0%A4%A"])(
    "GET %s answers 400",
    async (path) => {
      const res = await send({ method: "GET", path });
      expect(res.status).toBe(400);
      expect(reached.some((r) => r.path === path)).toBe(false);
    },
  );

  test("a good URL passes through", async () => {
    const res = await send({ method: "GET", path: "/services/weekly%20plan?x=%zz" });
    expect(res.status).toBe(200);
  });
});

describe("bounded bodies", () => {
  test("a form under 64 KB reaches the app whole", async () => {
    const res = await send({ path: "/contact", headers: form, chunks: [kb(60)], declaredLength: 60 * 1024 });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).bytes).toBe(60 * 1024);
  });

  test("a declared Content-Length over the limit is refused before a byte is read", async () => {
    const before = reached.length;
    const res = await send({ path: "/contact", headers: form, declaredLength: 1_000_000_000, chunks: [] });
    expect(res.status).toBe(413);
    expect(reached.length).toBe(before);
  });

  test("a streamed (chunked) form is cut at 64 KB with 413", async () => {
    const before = reached.length;
    const chunks = Array.from({ length: 64 }, () => kb(16)); // 1 MB offered
    const res = await send({ path: "/auth", headers: { ...form, "Transfer-Encoding": "chunked" }, chunks });
    expect(res.status).toBe(413);
    expect(res.body).toBe("Request body too large");
    expect(reached.length).toBe(before);
  });

  test("JSON to a page answers 400", async () => {
    const res = await send({
      path: "/auth",
      headers: { "Content-Type": "application/json" },
      chunks: [Buffer.from("{}")],
      declaredLength: 2,
    });
    expect(res.status).toBe(400);
  });

  test("a webhook without its signature header is refused before its body", async () => {
    const res = await send({
      path: "/resources/sanity-webhook",
      headers: { "Content-Type": "application/json" },
      declaredLength: 200 * 1024,
      chunks: [kb(200)],
    });
    expect(res.status).toBe(401);
  });

  test("webhooks take up to 256 KB, by path prefix for future providers", async () => {
    const ok = await send({
      path: "/resources/webhooks/cal",
      headers: { "Content-Type": "application/json", "X-Cal-Signature-256": "sig" },
      declaredLength: 200 * 1024,
      chunks: [kb(200)],
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).bytes).toBe(200 * 1024);
    const tooBig = await send({
      path: "/resources/webhooks/someone-new",
      headers: {
        "Content-Type": "application/json",
        "Calendly-Webhook-Signature": "sig",
        "Transfer-Encoding": "chunked",
      },
      chunks: Array.from({ length: 40 }, () => kb(16)),
    });
    expect(tooBig.status).toBe(413);
    expect(WEBHOOK_LIMIT_BYTES).toBeGreaterThan(FORM_LIMIT_BYTES);
  });

  test("an anonymous upload is refused before its body; a declared 2 GB upload too", async () => {
    const multipart = { "Content-Type": "multipart/form-data; boundary=x" };
    const before = reached.length;
    const anonymous = await send({
      path: "/admin-dashboard?index",
      headers: multipart,
      declaredLength: 10_000_000,
      chunks: [kb(64)],
    });
    expect(anonymous.status).toBe(401);
    const huge = await send({
      path: "/admin-dashboard?index",
      headers: { ...multipart, Cookie: "__session=abc" },
      declaredLength: 2_000_000_000,
      chunks: [kb(64)],
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatch(/^File Too Large: the maximum file size is 50MB/);
    expect(reached.length).toBe(before);
  });

  test("a signed-in upload streams on to the route (not buffered here)", async () => {
    const res = await send({
      path: "/admin-dashboard?index",
      headers: { "Content-Type": "multipart/form-data; boundary=x", Cookie: "__session=abc" },
      declaredLength: 1024 * 1024,
      chunks: [kb(1024)],
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).bytes).toBe(1024 * 1024);
  });
});
