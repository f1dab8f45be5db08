// Builds the command-line scripts production runs into plain JavaScript, so that the image needs
// neither tsx nor the TypeScript sources: build/scripts/migrate.js (fly.toml's release command),
// admin-role.js, outbox-send.js, visits-generate.js, billing-run.js and billing-collect.js. Each is one ES module that imports its npm packages from
// node_modules, as the server build does. `npm run build` runs this after `remix build`.
import path from "node:path";
import url from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
export const SERVER_SCRIPTS_DIR = path.join(ROOT, "build/scripts");

// npm packages stay imports, as in the server build: PGlite, which db/connection.ts imports
// only without DATABASE_URL, is not in a production install. (esbuild 0.17's `packages:
// "external"` would also leave the app's "~/" alias unresolved.)
const npmPackagesStayImports = {
  name: "npm-packages-stay-imports",
  setup(build) {
    build.onResolve({ filter: /^[^./~]/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Output name → source. */
export const SERVER_SCRIPTS = {
  migrate: "db/migrate.ts",
  "admin-role": "scripts/admin-role.ts",
  "outbox-send": "scripts/outbox-send.ts",
  "visits-generate": "scripts/visits-generate.ts",
  "billing-run": "scripts/billing-run.ts",
  "billing-collect": "scripts/billing-collect.ts",
};

export async function buildServerScripts(outDir = SERVER_SCRIPTS_DIR) {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_SCRIPTS).map(([name, file]) => [name, path.join(ROOT, file)]),
    ),
    outdir: outDir,
    bundle: true,
    plugins: [npmPackagesStayImports],
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    logLevel: "warning",
  });
}

if (process.argv[1] === url.fileURLToPath(import.meta.url)) await buildServerScripts();
