// Builds the technician's phone app's service worker (docs/decisions/127):
// app/features/offline/staff-app.sw.ts, bundled with Serwist by esbuild into
// public/build/service-worker/sw.js (server.js serves it at /admin-dashboard/sw.js, so its scope
// is the staff pages). Its precache list, the offline shell, is written in at build time: the
// stylesheet(s) of the Remix build, the plain browser scripts a staff page loads, and the favicon;
// shell.json beside it lists them with their sizes (bench/offline-shell.ts reads it). Runs after
// `remix build` and the browser scripts (their manifest names the scripts' hashed files).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import url from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const PUBLIC = path.join(ROOT, "public");
export const SERVICE_WORKER_DIR = path.join(PUBLIC, "build/service-worker");
const ENTRY = path.join(ROOT, "app/features/offline/staff-app.sw.ts");
/** The plain scripts a staff page can load (decision 068): the app's own, and a static page's. */
const SHELL_SCRIPTS = ["staff-app", "static-toast", "accessibility-panel"];
// The page's own icon. The manifest's PNG icons are not precached: the browser keeps an installed
// app's icons itself, and 13 KB of them would count against the 200 KB shell for nothing offline.
const ICONS = ["/favicon.svg"];

const revisionOf = (file) => createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16);

/** The offline shell: every URL the worker precaches, with its revision and size in bytes. */
export function shellEntries() {
  const entries = [];
  const add = (publicUrl, revision) => {
    const file = path.join(PUBLIC, publicUrl);
    entries.push({ url: publicUrl, revision, bytes: statSync(file).size });
  };
  const assets = path.join(PUBLIC, "build/_assets");
  // Remix's fingerprinted stylesheets: the name changes with the content, no revision needed.
  for (const name of readdirSync(assets)
    .filter((n) => n.endsWith(".css"))
    .sort())
    add(`/build/_assets/${name}`, null);
  const scripts = JSON.parse(readFileSync(path.join(PUBLIC, "build/browser/manifest.json"), "utf8"));
  for (const name of SHELL_SCRIPTS) {
    if (!scripts[name]) throw new Error(`The offline shell needs the browser script "${name}"; it was not built`);
    add(scripts[name], null);
  }
  for (const icon of ICONS) add(icon, revisionOf(path.join(PUBLIC, icon)));
  return entries;
}

export async function buildServiceWorker({ minify = true } = {}) {
  rmSync(SERVICE_WORKER_DIR, { recursive: true, force: true });
  mkdirSync(SERVICE_WORKER_DIR, { recursive: true });
  const shell = shellEntries();
  const precache = shell.map(({ url: entryUrl, revision }) => ({ url: entryUrl, revision }));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: path.join(SERVICE_WORKER_DIR, "sw.js"),
    bundle: true,
    // A classic worker script: every browser that has service workers runs it.
    format: "iife",
    platform: "browser",
    target: ["es2020"],
    minify,
    legalComments: "none",
    banner: { js: `self.__SW_MANIFEST=${JSON.stringify(precache)};` },
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
  const worker = statSync(path.join(SERVICE_WORKER_DIR, "sw.js")).size;
  writeFileSync(
    path.join(SERVICE_WORKER_DIR, "shell.json"),
    JSON.stringify({ worker, entries: shell }, null, 2) + "\n",
  );
  return { worker, entries: shell };
}

if (process.argv[1] && path.resolve(process.argv[1]) === url.fileURLToPath(import.meta.url)) {
  const { worker, entries } = await buildServiceWorker();
  console.log(`service worker: ${worker} bytes, ${entries.length} precached files`);
}
