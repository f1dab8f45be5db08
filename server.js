// The production (and development) HTTP server: Express in front of the Remix build, so that
// every response, static files included, carries the security headers.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import url from "node:url";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { broadcastDevReady, createRequestHandler as createRemixHandler, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { boundedBodies } from "./server/body-limits.js";
import { createRemixRequest } from "./server/remix-request.js";
import { requestGuards } from "./server/request-guards.js";
import { refuseCrossSiteWrites } from "./server/cross-site.js";
import { createPageCache, pageCacheOptionsFromEnv } from "./server/page-cache.js";
import { previewFrameAncestor } from "./server/preview-frame.js";
import { productionBuildProblem } from "./server/build-info.js";
import { serverHooksOf } from "./server/server-hooks.js";

installGlobals({ nativeFetch: true });

const MODE = process.env.NODE_ENV ?? "development";
const BUILD_PATH = path.resolve("build/index.js");
const SITE_URL = process.env.SITE_URL || "http://localhost:3000";
const HTTPS = SITE_URL.startsWith("https://");
const FORM_ACTION_ORIGINS = [
  "https://accounts.google.com",
  "https://facebook.com",
  "https://www.facebook.com",
  "https://calendly.com",
  "https://cal.com",
  "https://app.cal.com",
  // "Add a card" and "Pay now" post here and are redirected to Stripe Checkout (docs/decisions/103).
  "https://checkout.stripe.com",
  ...(process.env.FORM_ACTION_ORIGINS ?? "").split(/[\s,]+/).filter(Boolean),
];
// HSTS preload is hard to undo (browsers ship the list): the owner opts in with HSTS_PRELOAD=true.
const HSTS = `max-age=63072000; includeSubDomains${process.env.HSTS_PRELOAD === "true" ? "; preload" : ""}`;

/** Stops the server before it listens: a message for whoever started it, not a stack trace. */
function refuseToStart(message) {
  console.error(message);
  process.exit(1);
}

// `npm start` on what `npm run dev` left in build/ would serve a development build (decision 014).
if (MODE === "production") {
  const problem = productionBuildProblem(path.resolve("."));
  if (problem) refuseToStart(problem);
}

async function importBuild() {
  const stat = fs.statSync(BUILD_PATH);
  // A query string busts Node's module cache so that development rebuilds are picked up.
  return import(url.pathToFileURL(BUILD_PATH).href + "?t=" + stat.mtimeMs);
}

/** The Content-Security-Policy for one response; scripts run only with this request's nonce. */
function contentSecurityPolicy(nonce, frameAncestor) {
  const dev = MODE === "development";
  const directives = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    // sonner and Remix's route transitions add inline style attributes; scripts stay strict.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https://cdn.sanity.io"],
    "media-src": ["'self'", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(dev ? ["ws://localhost:*", "ws://127.0.0.1:*"] : [])],
    // The phone app's service worker (decision 127), from this origin only.
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    // Sign-in with Google/Facebook and the booking calendar leave the site through a form post
    // (redirected): only those origins, plus any named in FORM_ACTION_ORIGINS.
    "form-action": ["'self'", ...FORM_ACTION_ORIGINS],
    // Only the Sanity Studio, only in preview (server/preview-frame.js).
    "frame-ancestors": frameAncestor ? ["'self'", frameAncestor] : ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
    ...(HTTPS ? { "upgrade-insecure-requests": [] } : {}),
  };
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join("; ");
}

function securityHeaders(req, res, next) {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  const frameAncestor = previewFrameAncestor(req);
  res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, frameAncestor));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  // X-Frame-Options cannot name an origin; frame-ancestors above says who may frame a preview.
  if (!frameAncestor) res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  // Geolocation for this origin only: the technician's "Use my current location" and the
  // completed visit's position (docs/decisions/108). The rest stay off; `<input capture>` opens the
  // phone's camera app through the file picker, which `camera` does not govern.
  res.setHeader(
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(self), payment=(), usb=(), interest-cohort=(), browsing-topics=()",
  );
  if (MODE === "production" && HTTPS) {
    res.setHeader("Strict-Transport-Security", HSTS);
  }
  next();
}

const app = express();
app.disable("x-powered-by");
// Fly's proxy terminates TLS: request URLs take their protocol from X-Forwarded-Proto. Rate
// limits never read req.ip; they use app/utils/client-ip.server.ts (Fly-Client-IP, TRUST_PROXY).
app.set("trust proxy", true);
app.use(compression());
app.use(securityHeaders);
app.use(requestGuards(), refuseCrossSiteWrites({ siteUrl: SITE_URL }), boundedBodies());
const pageCache = createPageCache({
  render: (req, res) => renderRemix(req, res),
  write: (res, response) => writeRemixResponse(res, response),
  ...pageCacheOptionsFromEnv(MODE),
});

// The phone app's service worker (decision 127), served from the staff pages' path so that its
// scope is theirs and no public page's; never cached on the way, so an update is seen at once.
const SERVICE_WORKER = path.resolve("public/build/service-worker/sw.js");
app.get("/admin-dashboard/sw.js", (req, res) => {
  res.sendFile(
    SERVICE_WORKER,
    { headers: { "Cache-Control": "no-cache", "Content-Type": "text/javascript" } },
    (error) => {
      if (error && !res.headersSent) res.status(404).type("text/plain").send("Not Found");
    },
  );
});

// Fingerprinted build assets never change under one name.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));

const getLoadContext = (req, res) => ({ cspNonce: res.locals.cspNonce, clientAddress: req.socket.remoteAddress });

let build = await importBuild();
// The build's hooks, all checked here (decision 014); importing the build starts nothing.
let hooks;
try {
  hooks = serverHooksOf(build);
} catch (error) {
  refuseToStart(error.message);
}
// A publish seen by this machine (its webhook or another machine's NOTIFY) drops cached pages.
hooks.onContentChanged(() => pageCache.clear());
// Migrations, the job queue (the round, the purges, the outbox: decision 114) and the content
// listener: once per process.
const background = hooks.startBackgroundWork();
if (MODE === "development") {
  // The plain browser scripts of static pages (decision 068) are built beside Remix's build.
  const { watchBrowserScripts } = await import("./scripts/build-browser-scripts.mjs");
  await watchBrowserScripts();
  // The phone app's service worker, once (decision 127): `npm run build` makes it again.
  const { buildServiceWorker } = await import("./scripts/build-service-worker.mjs");
  await buildServiceWorker({ minify: false }).catch((error) => console.error(`service worker: ${error.message}`));
  const { default: chokidar } = await import("chokidar");
  chokidar.watch(path.resolve("build/version.txt"), { ignoreInitial: true }).on("all", async () => {
    const next = await importBuild();
    try {
      hooks = serverHooksOf(next);
    } catch (error) {
      // Development keeps serving the last good build; the message says what to put back.
      console.error(error.message);
      return;
    }
    build = next;
    broadcastDevReady(build);
  });
}

// Given a function, Remix derives its route tables and its static handler again on every request
// (about 120 KB of garbage and a tree walk each, decision 122); only development swaps builds.
const handleRemix = createRemixHandler(MODE === "development" ? () => build : build, MODE);
const renderRemix = async (req, res) => {
  const request = createRemixRequest(req, res);
  const context = getLoadContext(req, res);
  // Content reads drafts only inside a preview request (app/content/preview.server.ts).
  const response = await hooks.runWithRequestContext(request, () => handleRemix(request, context));
  // Remix answers a resource route's error (media, webhooks) with its own 500 and no entry hook
  // in between: the entry maps "database unreachable" to the same 503 pages get (decision 052).
  return hooks.resourceErrorResponse(response, context);
};

/**
 * Sends a Remix response like @remix-run/express's handler, except that the body is piped with
 * backpressure: its own writer ignores `write()`'s return value, so a slow phone downloading a
 * 50 MB video would make the server hold the whole file in memory.
 */
async function writeRemixResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    // A page may tighten the site-wide Referrer-Policy (token pages: no-referrer); one value, not two.
    if (key === "referrer-policy") res.setHeader(key, value);
    else res.append(key, value);
  }
  if (!response.body) return void res.end();
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  await pipeline(Readable.fromWeb(response.body), res);
}

function remixRequestHandler() {
  return async (req, res, next) => {
    try {
      await writeRemixResponse(res, await renderRemix(req, res));
    } catch (error) {
      // A client that goes away mid-response is not an error of ours.
      if (res.headersSent || res.destroyed) return void res.destroy();
      next(error);
    }
  };
}
app.all("*", pageCache.renderOnce, remixRequestHandler());

// Body-parser and other middleware errors must not leak a stack trace.
app.use((error, req, res, _next) => {
  console.error(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "error",
      event: "http.unhandled",
      path: req.path,
      error: String(error?.message ?? error),
    }),
  );
  if (!res.headersSent) res.status(500).type("text/plain").send("Unexpected Application Error!");
});

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || "0.0.0.0";
// Page cache hits are answered before Express runs, like a static file (server/page-cache.js).
const server = http.createServer(pageCache.inFrontOf(app)).listen(port, host, () => {
  console.log(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "info",
      event: "server.listening",
      url: `http://localhost:${port}`,
      mode: MODE,
    }),
  );
  if (MODE === "development") broadcastDevReady(build);
});

// A stop lets the running jobs end after their batch (pg-boss marks the job done, not expired);
// bounded, so that a stuck job never keeps a deploy waiting: it is retried by the next process.
const STOP_WAIT_MS = 10_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    const jobsStopped = Promise.resolve(background?.stop?.()).catch(() => undefined);
    const waited = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
    server.close(() => void Promise.race([jobsStopped, waited]).then(() => process.exit(0)));
  });
}
