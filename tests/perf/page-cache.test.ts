import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterEach, describe, expect, test } from "vitest";
import { chooseEncoding, createPageCache, inlineScriptHashes } from "../../server/page-cache.js";

// The page cache in front of a real Express app on loopback, with a stand-in for Remix that
// renders a page with this request's nonce, counts its renders and can be told what to answer.

type Page = { status?: number; cacheControl?: string; setCookie?: boolean; body?: string; delayMs?: number };

const PUBLIC = "public, max-age=60";
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await close?.();
  close = undefined;
});

function pageHtml(nonce: string, text: string) {
  return `<!DOCTYPE html><html><head><script nonce="${nonce}">document.documentElement.dataset.theme="x"</script></head><body><p>${text}</p><script type="application/ld+json">{"@type":"Thing"}</script><script type="module" src="/build/entry.js" nonce="${nonce}"></script><script nonce="${nonce}">window.__ctx={"a":1}</script></body></html>`;
}

async function startApp(page: (path: string) => Page, options: { maxBytes?: number } = {}) {
  let renders = 0;
  const render = async (req: express.Request, res: express.Response) => {
    renders++;
    const p = page(req.path);
    if (p.delayMs) await new Promise((resolve) => setTimeout(resolve, p.delayMs));
    const headers = new Headers({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": p.cacheControl ?? PUBLIC,
      Vary: "Cookie",
    });
    if (p.setCookie) headers.set("Set-Cookie", "toast=1; Path=/");
    return new Response(p.body ?? pageHtml(res.locals.cspNonce, `page ${req.path}`), {
      status: p.status ?? 200,
      headers,
    });
  };
  const write = async (res: express.Response, response: Response) => {
    res.status(response.status);
    for (const [key, value] of response.headers) res.append(key, value);
    await pipeline(Readable.fromWeb(response.body as never), res);
  };
  const cache = createPageCache({ render, write, maxBytes: options.maxBytes ?? 1024 * 1024, ttlMs: 60_000 });
  const app = express();
  app.use((req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    res.setHeader(
      "Content-Security-Policy",
      `default-src 'self'; script-src 'self' 'nonce-${res.locals.cspNonce}'; object-src 'none'`,
    );
    res.setHeader("X-Frame-Options", "DENY");
    next();
  });
  app.all("*", cache.renderOnce, async (req, res) => write(res, await render(req, res)));
  const server = http.createServer(cache.inFrontOf(app)).listen(0, "127.0.0.1");
  await once(server, "listening");
  close = () => new Promise((resolve) => server.close(() => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** A raw request (fetch would decompress and add headers of its own). */
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .request(`${base}${path}`, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on("error", reject)
        .end();
    });
  return { get, cache, renders: () => renders };
}

describe("page cache", () => {
  test("the first anonymous GET renders (MISS); the next is served from memory (HIT) with the same bytes", async () => {
    const app = await startApp(() => ({}));
    const first = await app.get("/services");
    const second = await app.get("/services");
    expect([first.headers["x-page-cache"], second.headers["x-page-cache"]]).toEqual(["MISS", "HIT"]);
    expect(second.body.equals(first.body)).toBe(true);
    expect(app.renders()).toBe(1);
    expect(second.headers.vary).toBe("Cookie, Accept-Encoding");
    expect(second.headers["cache-control"]).toBe(PUBLIC);
    expect(second.headers["x-frame-options"]).toBe("DENY"); // the middleware's headers come along
    expect(second.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(app.cache.stats()).toMatchObject({ hits: 1, misses: 1 });
  });

  test("a visitor with any cookie never gets a cached page and never fills the cache", async () => {
    const app = await startApp(() => ({}));
    await app.get("/");
    const withCookie = await app.get("/", { Cookie: "__session=abc" });
    expect(withCookie.headers["x-page-cache"]).toBeUndefined();
    expect(app.renders()).toBe(2);
    const toast = await app.get("/about", { Cookie: "toast=hello" });
    expect(toast.headers["x-page-cache"]).toBeUndefined();
    expect((await app.get("/about")).headers["x-page-cache"]).toBe("MISS"); // the cookie render was not kept
  });

  test("private, no-store (previews, signed-in pages), Set-Cookie and errors are never kept", async () => {
    const pages: Record<string, Page> = {
      "/preview": { cacheControl: "private, no-store" },
      "/nostore": { cacheControl: "no-store" },
      "/toast": { setCookie: true },
      "/missing": { status: 404 },
    };
    const app = await startApp((path) => pages[path] ?? {});
    for (const path of Object.keys(pages)) {
      const first = await app.get(path);
      const second = await app.get(path);
      expect(first.headers["x-page-cache"]).toBe("BYPASS");
      expect(second.headers["x-page-cache"]).toBe("BYPASS");
      expect(second.headers["cache-control"]).toBe(pages[path].cacheControl ?? PUBLIC);
    }
    expect(app.renders()).toBe(8);
  });

  test("many misses of one page at once render it once", async () => {
    const app = await startApp(() => ({ delayMs: 100 }));
    const responses = await Promise.all(Array.from({ length: 20 }, () => app.get("/contact")));
    expect(app.renders()).toBe(1);
    expect(new Set(responses.map((r) => r.body.toString())).size).toBe(1);
    expect(responses.filter((r) => r.headers["x-page-cache"] === "MISS")).toHaveLength(1);
  });

  test("If-None-Match with the page's ETag gets a 304 without a body; another ETag gets the page", async () => {
    const app = await startApp(() => ({}));
    const first = await app.get("/", { "Accept-Encoding": "gzip" });
    const etag = String(first.headers.etag);
    const revalidated = await app.get("/", { "Accept-Encoding": "gzip", "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers["content-security-policy"]).toBe(first.headers["content-security-policy"]);
    const other = await app.get("/", { "If-None-Match": '"something-else"' });
    expect(other.status).toBe(200);
    expect(other.body.length).toBeGreaterThan(0);
  });

  test("renders of the same content have the same ETag whatever their nonce (every machine agrees)", async () => {
    const app = await startApp(() => ({}));
    const first = await app.get("/");
    app.cache.clear();
    const second = await app.get("/");
    expect(second.headers["x-page-cache"]).toBe("MISS");
    expect(second.body.equals(first.body)).toBe(false); // another nonce in the bytes
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  test("brotli, gzip and identity carry the same page, each with its own ETag and length", async () => {
    const app = await startApp(() => ({}));
    await app.get("/");
    const br = await app.get("/", { "Accept-Encoding": "gzip, deflate, br" });
    const gz = await app.get("/", { "Accept-Encoding": "gzip" });
    const plain = await app.get("/");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    expect(br.body.length).toBeLessThan(plain.body.length);
  });

  test("HEAD of a cached page sends its headers without the body", async () => {
    const app = await startApp(() => ({}));
    const get = await app.get("/");
    const head = await app.get("/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(get.body.length));
  });

  test("a cached page's policy allows its own inline scripts by hash, and no nonce", async () => {
    const app = await startApp(() => ({}));
    await app.get("/");
    const hit = await app.get("/");
    const policy = String(hit.headers["content-security-policy"]);
    expect(policy).not.toContain("nonce-");
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(policy).toContain(
      `script-src 'self' ${sha('document.documentElement.dataset.theme="x"')} ${sha('window.__ctx={"a":1}')};`,
    );
    expect(policy).not.toContain(sha('{"@type":"Thing"}')); // a data block is not a script
  });

  test("clear() drops every page, and a render that started before it is not kept", async () => {
    let text = "old";
    const app = await startApp(() => ({ delayMs: 100, body: pageHtml("n", text) }));
    await app.get("/");
    const during = app.get("/about"); // rendering the old content...
    await new Promise((resolve) => setTimeout(resolve, 20));
    text = "new";
    app.cache.clear(); // ...when a publish arrives
    expect((await during).body.toString()).toContain("old");
    expect((await app.get("/about")).body.toString()).toContain("new");
    expect((await app.get("/")).body.toString()).toContain("new");
  });

  test("the cache is bounded by bytes: the least recently used page goes first", async () => {
    const big = (path: string): Page => ({ body: pageHtml("n", path + randomBytes(30_000).toString("hex")) });
    const app = await startApp(big, { maxBytes: 300_000 }); // room for two pages of ~130 KB
    await app.get("/a");
    await app.get("/b");
    await app.get("/a"); // /a is now the most recent
    await app.get("/c");
    expect(app.cache.stats().bytes).toBeLessThanOrEqual(300_000);
    expect((await app.get("/a")).headers["x-page-cache"]).toBe("HIT");
    expect((await app.get("/b")).headers["x-page-cache"]).toBe("MISS");
  });

  test("query strings: order does not matter, Remix data requests are never cached", async () => {
    const app = await startApp(() => ({}));
    await app.get("/services?b=2&a=1");
    expect((await app.get("/services?a=1&b=2")).headers["x-page-cache"]).toBe("HIT");
    await app.get("/services?_data=root");
    expect((await app.get("/services?_data=root")).headers["x-page-cache"]).toBeUndefined();
  });
});

test("chooseEncoding prefers brotli, then gzip, honouring q=0", () => {
  expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
  expect(chooseEncoding("gzip")).toBe("gzip");
  expect(chooseEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
  expect(chooseEncoding("*")).toBe("br");
  expect(chooseEncoding("identity")).toBe("identity");
  expect(chooseEncoding(undefined)).toBe("identity");
});

test("inlineScriptHashes skips external scripts and data blocks", () => {
  expect(inlineScriptHashes(pageHtml("x", "y"))).toHaveLength(2);
});

test("the page cache's variables: defaults, CONTENT_CACHE_SECONDS, refusals naming the variable", async () => {
  const { pageCacheOptionsFromEnv } = await import("../../server/page-cache.js");
  expect(pageCacheOptionsFromEnv("production", {})).toEqual({
    enabled: true,
    maxBytes: 8 * 1024 * 1024,
    ttlMs: 60_000,
  });
  expect(pageCacheOptionsFromEnv("development", {}).enabled).toBe(false);
  expect(pageCacheOptionsFromEnv("production", { PAGE_CACHE: "off" }).enabled).toBe(false);
  expect(pageCacheOptionsFromEnv("production", { CONTENT_CACHE_SECONDS: "300" }).ttlMs).toBe(300_000);
  expect(pageCacheOptionsFromEnv("production", { CONTENT_CACHE_SECONDS: "300", PAGE_CACHE_SECONDS: "30" }).ttlMs).toBe(
    30_000,
  );
  expect(() => pageCacheOptionsFromEnv("production", { PAGE_CACHE_MAX_BYTES: "lots" })).toThrow(/PAGE_CACHE_MAX_BYTES/);
  expect(() => pageCacheOptionsFromEnv("production", { PAGE_CACHE_SECONDS: "0" })).toThrow(/PAGE_CACHE_SECONDS/);
});
