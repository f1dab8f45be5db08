// `npm run build`: the production build, then the marker that says so (server/build-info.js).
// Remix's server bundle and browser assets, the plain browser scripts (decision 068), the phone
// app's service worker (decision 127), the
// production scripts in build/scripts/ (decision 013), and
// build/build-info.json last, so that a build that failed half-way has no marker.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import url from "node:url";
import { BUILD_INFO_PATH, inputsHash, writeBuildInfo } from "../server/build-info.js";
import { buildBrowserScripts } from "./build-browser-scripts.mjs";
import { buildServerScripts } from "./build-server-scripts.mjs";
import { buildServiceWorker } from "./build-service-worker.mjs";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");

/** Builds for production; `quiet` keeps Remix's output out of the terminal (a test builds). */
export async function buildForProduction({ quiet = false } = {}) {
  rmSync(path.join(ROOT, BUILD_INFO_PATH), { force: true });
  // Hashed before building: a source edited while the build runs makes the marker stale, not wrong.
  const inputs = inputsHash(ROOT);
  const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
  execFileSync(process.execPath, [remix, "build"], {
    cwd: ROOT,
    stdio: quiet ? "pipe" : "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  const scripts = await buildBrowserScripts();
  if (!quiet) console.log(`browser scripts: ${Object.keys(scripts).join(", ") || "(none)"}`);
  // The phone app's service worker precaches the stylesheet and scripts just built (decision 127).
  const worker = await buildServiceWorker();
  if (!quiet) console.log(`service worker: ${worker.worker} bytes, ${worker.entries.length} precached files`);
  // The production scripts (migrate, admin:grant, outbox:send, visits:generate, billing:run) as plain JavaScript (decision 013).
  await buildServerScripts();
  return writeBuildInfo(ROOT, { mode: "production", inputs });
}

if (process.argv[1] && path.resolve(process.argv[1]) === url.fileURLToPath(import.meta.url)) {
  try {
    const info = await buildForProduction();
    console.log(`${BUILD_INFO_PATH}: ${info.mode}, sources ${info.inputs.slice(0, 12)}`);
  } catch (error) {
    // Remix has printed its error already (stdio inherited).
    console.error(String(error?.message ?? error).split("\n")[0]);
    process.exit(1);
  }
}
