import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const BUILD_FILE = path.join(ROOT, "build/index.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function isFresh() {
  let built = 0;
  try {
    built = statSync(BUILD_FILE).mtimeMs;
  } catch {
    return false;
  }
  // The build bundles app/ and the db/ modules it imports.
  const sources = [
    newestMtime(path.join(ROOT, "app")),
    newestMtime(path.join(ROOT, "db")),
    statSync(path.join(ROOT, "remix.config.js")).mtimeMs,
    // The build scripts, and the command-line scripts build/scripts/ holds.
    newestMtime(path.join(ROOT, "scripts")),
  ];
  try {
    built = Math.min(built, statSync(path.join(ROOT, "public/build/browser/manifest.json")).mtimeMs);
    built = Math.min(built, statSync(path.join(ROOT, "build/scripts/migrate.js")).mtimeMs);
  } catch {
    return false;
  }
  return built > Math.max(...sources);
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Tests that run the server build (in-process or as `node server.js`) build it first when it
 * is missing or older than the app's sources: a stale build would test yesterday's code.
 * Test files run in parallel workers: one builds, the others wait for it.
 */
export function ensureBuild() {
  if (isFresh()) return;
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
    if (!isFresh()) {
      const options = { cwd: ROOT, stdio: "pipe", env: { ...process.env, NODE_ENV: "production" } } as const;
      execFileSync(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build"], options);
      // `npm run build`'s second step: the plain browser scripts (decision 068).
      execFileSync(process.execPath, [path.join(ROOT, "scripts/build-browser-scripts.mjs")], options);
      // Its third: the command-line scripts production runs (build/scripts/).
      execFileSync(process.execPath, [path.join(ROOT, "scripts/build-server-scripts.mjs")], options);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
