// Builds the plain browser scripts of the static public pages (decision 068): every
// `app/**/*.browser.ts` is bundled on its own (no React, no Remix) into
// public/build/browser/<name>-<hash>.js, and public/build/browser/manifest.json maps each name
// ("quote-form" for app/features/quotes/quote-form.browser.ts) to its URL. The server reads the
// manifest (app/utils/browser-scripts.server.ts). `npm run build` runs this after `remix build`;
// `npm run dev` (server.js) runs it in watch mode.
import { readdirSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import url from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const SUFFIX = ".browser.ts";
export const BROWSER_OUT_DIR = path.join(ROOT, "public/build/browser");
const PUBLIC_PATH = "/build/browser";

function findEntries() {
  return readdirSync(path.join(ROOT, "app"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(SUFFIX) && !file.includes("node_modules"))
    .sort()
    .map((file) => path.join(ROOT, "app", file));
}

// What a plain browser script must never bundle: the framework it exists to leave out.
const FRAMEWORK = /(^|\/)node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|@conform-to\/react)\//;

/** The framework modules each entry bundled, as messages (none: an empty list). */
function frameworkInputs(metafile) {
  const problems = [];
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    const found = Object.keys(meta.inputs).filter((input) => FRAMEWORK.test(input));
    if (meta.entryPoint && found.length) problems.push(`${meta.entryPoint} bundles ${found.join(", ")} (${output})`);
  }
  return problems;
}

function writeManifest(metafile, outDir = BROWSER_OUT_DIR) {
  const scripts = {};
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const name = path.basename(meta.entryPoint, SUFFIX);
    scripts[name] = `${PUBLIC_PATH}/${path.basename(output)}`;
  }
  writeFileSync(path.join(outDir, "manifest.json"), JSON.stringify(scripts, null, 2) + "\n");
  return scripts;
}

function options(entryPoints, outDir = BROWSER_OUT_DIR) {
  return {
    absWorkingDir: ROOT,
    // Named by the entry without ".browser.ts": auth-forms.browser.ts -> auth-forms-<hash>.js.
    entryPoints: Object.fromEntries(entryPoints.map((file) => [path.basename(file, SUFFIX), file])),
    outdir: outDir,
    entryNames: "[name]-[hash]",
    bundle: true,
    // One file per page: no shared chunks, so no second round trip before the script runs.
    splitting: false,
    format: "esm",
    platform: "browser",
    target: ["es2020"],
    minify: true,
    legalComments: "none",
    metafile: true,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  };
}

/**
 * One entry bundled in memory exactly as the build bundles it (`file` relative to the project):
 * esbuild's result with its metafile and output. Tests check what a script carries with it.
 */
export function bundleBrowserScript(file) {
  return esbuild.build({ ...options([path.join(ROOT, file)]), write: false, logLevel: "silent" });
}

/** The entry files, relative to app/. */
export function browserScriptEntries() {
  return findEntries().map((file) => path.relative(path.join(ROOT, "app"), file));
}

/**
 * One build (production, and tests that need the build) into `outDir` (public/build/browser;
 * a test builds elsewhere). Returns the manifest.
 */
export async function buildBrowserScripts(outDir = BROWSER_OUT_DIR) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await esbuild.build(options(findEntries(), outDir));
  const problems = frameworkInputs(result.metafile);
  if (problems.length) throw new Error(`A browser script must not bundle React or Remix:\n${problems.join("\n")}`);
  return writeManifest(result.metafile, outDir);
}

/**
 * Development: rebuilds on every change of an entry or anything it imports. A new entry file is
 * picked up by restarting `npm run dev`.
 */
export async function watchBrowserScripts() {
  rmSync(BROWSER_OUT_DIR, { recursive: true, force: true });
  mkdirSync(BROWSER_OUT_DIR, { recursive: true });
  const manifestPlugin = {
    name: "browser-scripts-manifest",
    setup(build) {
      build.onEnd((result) => {
        if (!result.metafile) return;
        for (const problem of frameworkInputs(result.metafile)) console.error(`browser script: ${problem}`);
        writeManifest(result.metafile);
      });
    },
  };
  const context = await esbuild.context({ ...options(findEntries()), minify: false, plugins: [manifestPlugin] });
  await context.watch();
  return context;
}

if (process.argv[1] && path.resolve(process.argv[1]) === url.fileURLToPath(import.meta.url)) {
  const scripts = await buildBrowserScripts();
  console.log(`browser scripts: ${Object.keys(scripts).join(", ") || "(none)"}`);
}
