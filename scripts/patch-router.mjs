// Run by `npm install` / `npm ci` (postinstall): makes @remix-run/router's server build (the
// CommonJS file that Remix and react-router load in Node) flatten and rank a route tree once, not
// on every match (decision 122). Remix matches a request three times (its own lookup, the static
// handler's query, react-router's render); each match flattened all 64 routes, computed every
// score, sorted them and compiled a RegExp per route on the way: 7 to 9 % of a page's server CPU
// and about 130 KB of garbage a match.
//
// The edit is two exact replacements, checked against the version it was written for: if the
// package changes, the script says so and leaves the file alone (the app still works, unpatched).
// Running it again is a no-op. The browser's build (router.js, ESM) is not touched: the client
// router patches its route tree in place (lazy route discovery), which a cache keyed by the tree
// would not see; on the server the trees are built once per build and never changed.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const VERSION = "1.23.3";
export const MARK = "/* swift-scoop: ranked branches cached (scripts/patch-router.mjs, decision 122) */";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "node_modules/@remix-run/router");
const file = path.join(dir, "dist/router.cjs.js");

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

function patch() {
  if (!existsSync(file)) return "no @remix-run/router installed: nothing to patch";
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  let source = readFileSync(file, "utf8");
  if (source.includes(MARK)) return `@remix-run/router ${version}: already patched`;
  if (version !== VERSION) return `@remix-run/router is ${version}, the patch is for ${VERSION}: left unpatched`;
  for (const edit of EDITS) {
    if (source.split(edit.from).length !== 2)
      return `@remix-run/router ${version}: an edit no longer applies, left unpatched`;
    source = source.replace(edit.from, () => edit.to);
  }
  // A new file, renamed over the old one: node_modules may be a hard-linked copy of another
  // checkout's, whose file an in-place write would change too.
  writeFileSync(`${file}.patched`, source);
  renameSync(`${file}.patched`, file);
  return `@remix-run/router ${version}: route matching patched (decision 122)`;
}

// Imported by the test for its edits; run by npm for the patch.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  console.log(`patch-router: ${patch()}`);
}
