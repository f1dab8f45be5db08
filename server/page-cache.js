// The page cache: anonymous GET and HEAD requests of public pages are answered from memory with
// bytes rendered once, precompressed (brotli, gzip), with a strong ETag. See
// docs/decisions/060-page-cache.md for what is cached and why the CSP stays strict.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** A public page bigger than this is served but never kept (it would crowd out the rest). */
const MAX_ENTRY_BYTES = 1024 * 1024;

/** Headers that belong to one response, or that the cache sets itself. */
const NOT_STORED = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "etag",
  "date",
  "connection",
  "keep-alive",
  "vary",
  "x-page-cache",
]);

/**
 * The response's content codings in the order we prefer them, given an Accept-Encoding header.
 * Brotli wins whenever it is acceptable, whatever order the browser lists codings in.
 */
export function chooseEncoding(acceptEncoding) {
  if (!acceptEncoding) return "identity";
  const q = {};
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q[name] = qParam ? Number(qParam.slice(2)) || 0 : 1;
  }
  const accepts = (coding) => (coding in q ? q[coding] > 0 : "*" in q && q["*"] > 0);
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return "identity";
}

/** The CSP hash sources of the inline scripts of a page (external and data scripts need none). */
export function inlineScriptHashes(html) {
  const hashes = new Set();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes, body] = match;
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** Whether a response may be shared by every anonymous visitor. */
function storable(response) {
  if (response.status !== 200 || !response.body) return false;
  if (response.headers.has("set-cookie")) return false;
  // Pages, not pictures: the image route keeps its variants on disk, and a few hero sizes (with a
  // brotli copy each, costly to make) would push every page out of this small memory bound.
  if (/^(image|video|audio)\//i.test(response.headers.get("content-type") ?? "")) return false;
  const cacheControl = (response.headers.get("cache-control") ?? "").toLowerCase();
  // Preview and signed-in responses mark themselves private or no-store; only "public" is shared.
  return /\bpublic\b/.test(cacheControl) && !/\b(private|no-store|no-cache)\b/.test(cacheControl);
}

async function readBody(response, limit) {
  const chunks = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * @param {object} options
 * @param {(req: import("express").Request, res: import("express").Response) => Promise<Response>} options.render
 *   renders one request (Remix).
 * @param {(res: import("express").Response, response: Response) => Promise<void>} options.write
 *   sends a rendered response that will not be kept.
 * @param {number} [options.maxBytes] the bound of all entries together (identity + gzip + brotli).
 * @param {number} [options.ttlMs] how long an entry is served without a new render.
 * @param {boolean} [options.enabled]
 */
export function createPageCache({ render, write, maxBytes = 8 * 1024 * 1024, ttlMs = 60_000, enabled = true }) {
  const entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.bytes, ttl: ttlMs });
  /** Renders under way, one per key: everybody who misses the same page waits for one render. */
  const fills = new Map();
  // Bumped by clear(): a render that started before a publish must not store the old content.
  let generation = 0;
  const stats = { hits: 0, misses: 0, bypasses: 0, notModified: 0 };

  /** The cache key of a request, or null when the request must reach Remix. Works on a bare node:http request. */
  function keyOf(req) {
    if (!enabled) return null;
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const { headers } = req;
    // Any cookie may make the page personal (session, toast, preferences): never shared.
    if (headers.cookie || headers.authorization || headers.range) return null;
    // The key is the URL as sent; sorting the query only merges keys that render alike.
    let target = req.url;
    if (target.includes("?")) {
      const url = new URL(target, "http://x");
      if (url.searchParams.has("_data")) return null; // Remix data requests are JSON, not pages
      url.searchParams.sort();
      target = url.pathname + url.search;
    }
    return `${headers["x-forwarded-proto"] === "https" ? "https" : "http"}://${headers.host ?? ""}${target}`;
  }

  function send(req, res, entry, outcome) {
    const variant = entry.variants[chooseEncoding(req.headers["accept-encoding"])];
    const ifNoneMatch = req.headers["if-none-match"];
    if (ifNoneMatch && (ifNoneMatch === "*" || ifNoneMatch.includes(entry.tag))) {
      stats.notModified++;
      res.writeHead(304, variant.notModified);
      return void res.end();
    }
    res.writeHead(200, outcome === "HIT" ? variant.headers : { ...variant.headers, "x-page-cache": outcome });
    res.end(req.method === "HEAD" ? undefined : variant.body);
  }

  /** Renders the page once; resolves to { entry } when it can be kept, else { response }. */
  async function fill(req, res, key) {
    const startedIn = generation;
    const response = await render(req, res);
    if (!storable(response)) return { response };
    const body = await readBody(response, MAX_ENTRY_BYTES);
    if (!body) return { response: null, tooBig: true };
    const html = /text\/html/i.test(response.headers.get("content-type") ?? "");
    const hashes = html ? inlineScriptHashes(body.toString("utf8")) : [];
    const [gz, br] = await Promise.all([
      gzip(body, { level: 9 }),
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    ]);
    const policy = res.getHeader("Content-Security-Policy");
    // The rendering request's nonce is left out of the validator, so that every render of the
    // same content, on any machine, has the same ETag.
    const nonce = /'nonce-([^']*)'/.exec(String(policy ?? ""))?.[1];
    const tagged = html && nonce ? body.toString("utf8").replaceAll(` nonce="${nonce}"`, "") : body;
    const tag = createHash("sha256").update(tagged).digest("base64url").slice(0, 27);
    // Every header of this response but the per-response ones: the security headers that the
    // middleware before Remix set, then Remix's own. A hit sends them without running either.
    const common = {};
    for (const [name, value] of [...Object.entries(res.getHeaders()), ...response.headers]) {
      if (!NOT_STORED.has(name.toLowerCase())) common[name.toLowerCase()] = value;
    }
    // The server's policy with the page's script hashes in place of the rendering request's
    // nonce (the rest of the policy is the same for every request): the nonce rendered into the
    // cached bytes is never honoured, so it is no secret that every visitor sees it.
    if (html && policy) common["content-security-policy"] = String(policy).replace(/'nonce-[^']*'/, hashes.join(" "));
    common.vary = "Cookie, Accept-Encoding";
    const variant = (bytes, coding, etag) => {
      const validators = { ...common, etag, "x-page-cache": "HIT" };
      const headers = { ...validators, "content-length": String(bytes.length) };
      if (coding) headers["content-encoding"] = coding;
      delete validators["content-type"];
      return { body: bytes, headers, notModified: validators };
    };
    const entry = {
      tag,
      variants: {
        identity: variant(body, null, `"${tag}"`),
        gzip: variant(gz, "gzip", `"${tag}-gz"`),
        br: variant(br, "br", `"${tag}-br"`),
      },
      bytes: body.length + gz.length + br.length + 2048,
    };
    if (startedIn === generation) entries.set(key, entry);
    return { entry };
  }

  /**
   * In front of Express (the node:http request listener): a hit is answered with stored bytes
   * and headers, as a static file server would; everything else goes to `app` untouched.
   */
  function inFrontOf(app) {
    return (req, res) => {
      const key = keyOf(req);
      const entry = key && entries.get(key);
      if (!entry) return app(req, res);
      stats.hits++;
      send(req, res, entry, "HIT");
    };
  }

  /** Just before Remix: a cacheable GET renders once per key, and concurrent misses share it. */
  async function renderOnce(req, res, next) {
    const key = keyOf(req);
    if (!key || req.method !== "GET") {
      if (enabled) stats.bypasses++;
      return next();
    }
    const entry = entries.get(key);
    if (entry) {
      stats.hits++;
      return send(req, res, entry, "HIT");
    }
    try {
      const pending = fills.get(key);
      if (pending) {
        const shared = await pending.catch(() => ({}));
        if (shared.entry) {
          stats.hits++;
          return send(req, res, shared.entry, "HIT");
        }
        stats.bypasses++;
        return next(); // not shareable: render for this visitor
      }
      stats.misses++;
      const filling = fill(req, res, key);
      fills.set(key, filling);
      const forget = () => fills.get(key) === filling && fills.delete(key);
      filling.then(forget, forget);
      const result = await filling;
      if (result.entry) return send(req, res, result.entry, "MISS");
      if (result.response) {
        res.setHeader("X-Page-Cache", "BYPASS");
        return await write(res, result.response);
      }
      return next(); // too big to keep: render again, streamed
    } catch (error) {
      // A client that went away mid-render ("Premature close") is not an error of ours.
      if (res.headersSent || res.destroyed) return void res.destroy();
      next(error);
    }
  }

  return {
    inFrontOf,
    renderOnce,
    /** Drops every page, e.g. after a publish; renders under way will not store theirs. */
    clear() {
      generation++;
      entries.clear();
    },
    stats: () => ({ ...stats, entries: entries.size, bytes: entries.calculatedSize }),
  };
}

/**
 * PAGE_CACHE_MAX_BYTES (default 8 MiB), PAGE_CACHE_SECONDS (default CONTENT_CACHE_SECONDS or 60); off outside production.
 * @param {string} mode
 * @param {Record<string, string | undefined>} [env]
 */
export function pageCacheOptionsFromEnv(mode, env = process.env) {
  // A bad value stops the server at start, naming the variable (as app/utils/env.server.ts does).
  const number = (name, fallback, min) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}"`);
    return value;
  };
  const seconds = number("PAGE_CACHE_SECONDS", number("CONTENT_CACHE_SECONDS", 60, 0), 1);
  return {
    enabled: mode === "production" && env.PAGE_CACHE !== "off",
    maxBytes: number("PAGE_CACHE_MAX_BYTES", 8 * 1024 * 1024, 64 * 1024),
    ttlMs: seconds * 1000,
  };
}
