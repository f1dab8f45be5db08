// What a build is (docs/decisions/014-explicit-server-hooks.md): `npm run build`
// (scripts/build.mjs) writes build/build-info.json with the mode, a hash of the sources it was
// built from and a hash of the server bundle it wrote. `remix dev` writes build/index.js too (a
// development build) and knows nothing of the marker, so a bundle whose hash is not the one
// recorded is not the production build: `npm start` refuses it and the tests rebuild.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const BUILD_INFO_PATH = "build/build-info.json";
// The server bundle (it names the fingerprinted browser assets) and the plain browser scripts'
// manifest: `npm run dev` rewrites both, unminified.
const OUTPUT_FILES = ["build/index.js", "public/build/browser/manifest.json"];

/** The sources a build is made of: what Remix bundles, how, and with which packages. */
const INPUT_DIRS = ["app", "db"];
const INPUT_FILES = [
  "remix.config.js",
  "scripts/build-browser-scripts.mjs",
  "scripts/build.mjs",
  "scripts/build-server-scripts.mjs",
  "scripts/admin-role.ts",
  "scripts/outbox-send.ts",
  "scripts/visits-generate.ts",
  "scripts/billing-run.ts",
  "package-lock.json",
  "tailwind.config.ts",
  "postcss.config.js",
  "tsconfig.json",
];
// Test files beside the code are never bundled (remix.config.js ignores them).
const NOT_AN_INPUT = /\.(test|spec)\.(ts|tsx)$/;

function filesUnder(root, dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !NOT_AN_INPUT.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
}

/** A hash of the build's sources (names and contents), so an edit is seen whatever its mtime. */
export function inputsHash(root) {
  const files = [...INPUT_DIRS.flatMap((dir) => filesUnder(root, dir)), ...INPUT_FILES].sort();
  const hash = createHash("sha256");
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(file + "\0");
    hash.update(existsSync(full) ? readFileSync(full) : "(missing)");
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** A hash of the build's output as it is now; null when a part is missing. */
export function bundleHash(root) {
  const hash = createHash("sha256");
  for (const file of OUTPUT_FILES) {
    const full = path.join(root, file);
    if (!existsSync(full)) return null;
    hash
      .update(file + "\0")
      .update(readFileSync(full))
      .update("\0");
  }
  return hash.digest("hex");
}

/** The marker `npm run build` wrote; null when there is none (or it is unreadable). */
export function readBuildInfo(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, BUILD_INFO_PATH), "utf8"));
  } catch {
    return null;
  }
}

/** Written by scripts/build.mjs once the whole build succeeded. */
export function writeBuildInfo(root, { mode, inputs }) {
  const info = { mode, inputs, bundle: bundleHash(root), builtAt: new Date().toISOString() };
  writeFileSync(path.join(root, BUILD_INFO_PATH), JSON.stringify(info, null, 2) + "\n");
  return info;
}

export const NOT_A_PRODUCTION_BUILD =
  "build/ does not hold a production build (`npm run dev` leaves a development build there): " +
  "run `npm run build`, then `npm start`.";

/**
 * Why build/ cannot be served in production, or null when it can: the marker must say
 * "production" and name the bundle that is there. (The sources are not compared: a production
 * image carries the build, not necessarily what it was built from.)
 */
export function productionBuildProblem(root) {
  const info = readBuildInfo(root);
  if (!info || info.mode !== "production" || !info.bundle || info.bundle !== bundleHash(root)) {
    return NOT_A_PRODUCTION_BUILD;
  }
  return null;
}
