import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { bundleHash, inputsHash, readBuildInfo } from "../../server/build-info.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const BUILD_FILE = path.join(ROOT, "build/index.js");

/**
 * Why build/ is not the production build of the current sources, or null when it is. Judged by
 * the marker `npm run build` writes (server/build-info.js), never by file times: `npm run dev`
 * leaves a newer build/index.js that is a development build.
 */
export function staleBuildReason(root = ROOT): string | null {
  const info = readBuildInfo(root);
  if (!info) return "no build/build-info.json (never built, or built by `npm run dev`)";
  if (info.mode !== "production") return `a ${String(info.mode)} build`;
  if (!info.bundle || info.bundle !== bundleHash(root)) return "build/ was rewritten since (`npm run dev`?)";
  if (info.inputs !== inputsHash(root)) return "the sources changed since";
  return null;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Tests that run the server build (in-process or as `node server.js`) build it first unless it
 * is the production build of today's sources: a stale build would test yesterday's code, a
 * development build would test something else. Test files run in parallel workers: one builds,
 * the others wait for it.
 */
export function ensureBuild() {
  if (!staleBuildReason()) return;
  const lock = path.join(ROOT, "node_modules/.cache/test-build.lock");
  mkdirSync(path.dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run is broken after two minutes.
      if (waited > 120_000) rmSync(lock, { recursive: true, force: true });
      sleep(200);
    }
  }
  try {
    if (staleBuildReason()) {
      // `npm run build` itself, so the tests build exactly what the image builds.
      execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs")], {
        cwd: ROOT,
        stdio: "pipe",
        env: { ...process.env, NODE_ENV: "production" },
      });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
