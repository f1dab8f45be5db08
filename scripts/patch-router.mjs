// Run by `npm install` / `npm ci` (postinstall): makes @remix-run/router's server build (the
// CommonJS file that Remix and react-router load in Node) flatten and rank a route tree once, not
// on every match (decision 122). Remix matches a request three times (its own lookup, the static
// handler's query, react-router's render); each match flattened all 64 routes, computed every
// score, sorted them and compiled a RegExp per route on the way: 7 to 9 % of a page's server CPU
// and about 130 KB of garbage a match.
//
// It also makes the render build its route trees once per build, not once per page (decision 132:
// @remix-run/react's RemixServer and react-router-dom's createStaticRouter; see RENDER_MARK below).
//
// Each edit is an exact replacement, checked against the version it was written for: if a
// package changes, the script says so and leaves its file alone (the app still works, unpatched).
// Running it again is a no-op. The browser's build (router.js, ESM) is not touched: the client
// router patches its route tree in place (lazy route discovery), which a cache keyed by the tree
// would not see; on the server the trees are built once per build and never changed.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const VERSION = "1.23.3";
export const MARK = "/* swift-scoop: ranked branches cached (scripts/patch-router.mjs, decision 122) */";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The edits, exported for the test that checks them against the original (tests/server/route-matching.test.ts). */
export const EDITS = [
  {
    // matchRoutesImpl: the flattened, ranked branches of a route array, once per array.
    from: "  let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);\n  let matches = null;\n  let decoded = decodePath(pathname);\n",
    to: "  let branches = rankedBranchesOf(routes);\n  let matches = null;\n  let decoded = decodePath(pathname);\n  let lowered = decoded.toLowerCase();\n",
  },
  {
    // ... and a branch is tried only if the path holds each of its plain segments: trying one
    // allocates its root's match first, whatever the rest; a dynamic path tried ~60 (37 KB).
    from: "    matches = matchRouteBranch(branches[i], decoded, allowPartial);\n",
    to: "    matches = mayMatch(branches[i], lowered) ? matchRouteBranch(branches[i], decoded, allowPartial) : null;\n",
  },
  {
    // compilePath: one RegExp per (path, caseSensitive, end); bounded, because matchPath is public
    // and may be called with patterns built at run time.
    from: "function compilePath(path, caseSensitive, end) {\n",
    to: `${MARK}
const rankedBranches = new WeakMap();
function rankedBranchesOf(routes) {
  let branches = rankedBranches.get(routes);
  if (!branches) {
    branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    rankedBranches.set(routes, branches);
  }
  return branches;
}
// The lower-cased "/segment" of each plain segment of a branch's routes (letters, digits, . _ ~ -:
// matched literally by compilePath, case-insensitively at most). A path that lacks one cannot
// match the branch, so skipping it never changes a result; any other segment is not checked.
const plainSegments = new WeakMap();
function mayMatch(branch, loweredPathname) {
  let segments = plainSegments.get(branch);
  if (!segments) {
    segments = [];
    for (let meta of branch.routesMeta) {
      for (let segment of meta.relativePath.split("/")) {
        let plain = segment.replace(/\\*$/, "");
        if (/^[A-Za-z0-9._~-]+$/.test(plain)) segments.push("/" + plain.toLowerCase());
      }
    }
    plainSegments.set(branch, segments);
  }
  for (let i = 0; i < segments.length; i++) if (!loweredPathname.includes(segments[i])) return false;
  return true;
}
const compiledPaths = new Map();
function compilePath(path, caseSensitive, end) {
  // The same defaults and truthiness as the original's: caseSensitive false, end true.
  let key = (caseSensitive ? "1" : "0") + (end === void 0 || end ? "1" : "0") + path;
  let compiled = compiledPaths.get(key);
  if (!compiled) {
    compiled = compilePathUncached(path, caseSensitive, end);
    if (compiledPaths.size < 1000) compiledPaths.set(key, compiled);
  }
  return compiled;
}
function compilePathUncached(path, caseSensitive, end) {
`,
  },
];

/**
 * The render's route trees, once per build (decision 132). Remix's RemixServer converts the build's manifest into react-router routes on
 * every render (`createServerRoutes`), and react-router-dom's `createStaticRouter` converts those
 * into data routes again; the render's own match then meets a new array each time, so the ranked
 * branches above were flattened afresh once per page. Both trees depend only on the build (its
 * manifest, route modules, future flags), which never changes in a running server: they are kept
 * per manifest / per route array (WeakMaps, so a rebuilt manifest in development is its own).
 */
export const RENDER_MARK = "/* swift-scoop: render route trees cached (scripts/patch-router.mjs, decision 132) */";
export const REMIX_SERVER_EDITS = [
  {
    from: "  let routes$1 = routes.createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);\n",
    to: `  ${RENDER_MARK}
  let routes$1 = serverRoutesByManifest.get(manifest.routes);
  if (!routes$1) {
    routes$1 = routes.createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);
    serverRoutesByManifest.set(manifest.routes, routes$1);
  }
`,
  },
  {
    from: "function RemixServer({\n",
    to: "const serverRoutesByManifest = new WeakMap();\nfunction RemixServer({\n",
  },
];
export const STATIC_ROUTER_EDITS = [
  {
    from: "function createStaticRouter(routes, context, opts = {}) {\n  let manifest = {};\n  let dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest);\n",
    to: `${RENDER_MARK}
const dataRoutesByRoutes = new WeakMap();
function createStaticRouter(routes, context, opts = {}) {
  let converted = dataRoutesByRoutes.get(routes);
  if (!converted) {
    let routeManifest = {};
    converted = { manifest: routeManifest, dataRoutes: router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, routeManifest) };
    dataRoutesByRoutes.set(routes, converted);
  }
  let { manifest, dataRoutes } = converted;
`,
  },
];

/** Every file patched: the package, the version each edit was written against, its mark. */
export const TARGETS = [
  {
    name: "@remix-run/router",
    version: VERSION,
    file: "dist/router.cjs.js",
    mark: MARK,
    edits: EDITS,
    what: "route matching",
  },
  {
    name: "@remix-run/react",
    version: "2.17.5",
    file: "dist/server.js",
    mark: RENDER_MARK,
    edits: REMIX_SERVER_EDITS,
    what: "the render's server routes",
  },
  {
    name: "react-router-dom",
    version: "6.30.4",
    file: "server.js",
    mark: RENDER_MARK,
    edits: STATIC_ROUTER_EDITS,
    what: "the static router's data routes",
  },
];

function patch({ name, version: expected, file: relative, mark, edits, what }) {
  const dir = path.join(root, "node_modules", name);
  const file = path.join(dir, relative);
  if (!existsSync(file)) return `no ${name} installed: nothing to patch`;
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  let source = readFileSync(file, "utf8");
  if (source.includes(mark)) return `${name} ${version}: already patched`;
  if (version !== expected) return `${name} is ${version}, the patch is for ${expected}: left unpatched`;
  for (const edit of edits) {
    if (source.split(edit.from).length !== 2) return `${name} ${version}: an edit no longer applies, left unpatched`;
    source = source.replace(edit.from, () => edit.to);
  }
  // A new file, renamed over the old one: node_modules may be a hard-linked copy of another
  // checkout's, whose file an in-place write would change too.
  writeFileSync(`${file}.patched`, source);
  renameSync(`${file}.patched`, file);
  return `${name} ${version}: ${what} patched`;
}

// Imported by the tests for its edits; run by npm for the patch.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const target of TARGETS) console.log(`patch-router: ${patch(target)}`);
}
