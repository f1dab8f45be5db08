// The import rules between the app's layers (docs/decisions/002-import-rules.md). Checked by
// `npm run lint:imports`, which `npm test` runs first. A rule that blocks you usually means the
// code belongs in another folder, not that the rule needs an exception.
//
//   routes -> features -> models -> db     (a route may call a model directly for a plain read)
//   anything may use utils and content; components are presentation only.
const SERVER_MODULE = "\\.server\\.(ts|tsx)$";
const TEST_FILE = "\\.(test|spec)\\.(ts|tsx)$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "components-are-presentation",
      comment: "Shared components get their data as props: no models, no db/, no routes.",
      severity: "error",
      from: { path: "^app/components/" },
      to: { path: ["^app/models/", "^db/", "^app/routes/"] },
    },
    {
      name: "components-without-server-code",
      comment: "Components reach the browser: a server-only module may lend them its types, nothing else.",
      severity: "error",
      from: { path: "^app/components/" },
      to: { path: SERVER_MODULE, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "models-are-table-access",
      comment: "Models read and write tables; workflows that use them live in app/features.",
      severity: "error",
      from: { path: "^app/models/", pathNot: TEST_FILE },
      to: { path: ["^app/features/", "^app/routes/", "^app/components/"] },
    },
    {
      name: "utils-are-infrastructure",
      comment: "Infrastructure knows nothing of the business: no models, features or routes.",
      severity: "error",
      from: { path: "^app/utils/", pathNot: TEST_FILE },
      to: { path: ["^app/models/", "^app/features/", "^app/routes/"] },
    },
    {
      name: "content-is-a-source",
      comment: "The content layer reads Sanity (or the bundled dataset); it calls no workflow or table.",
      severity: "error",
      from: { path: "^app/content/", pathNot: TEST_FILE },
      to: { path: ["^app/models/", "^app/features/", "^app/routes/"] },
    },
    {
      name: "features-serve-routes",
      comment: "Routes call features, never the other way round.",
      severity: "error",
      from: { path: "^app/features/", pathNot: TEST_FILE },
      to: { path: "^app/routes/" },
    },
    {
      name: "db-stands-alone",
      comment:
        "db/ (migrations, connection, seed) needs nothing from app/ but the password hash the seed " +
        "writes; the Database types may name the value types of the feature constants (type-only).",
      severity: "error",
      from: { path: "^db/", pathNot: TEST_FILE },
      to: {
        path: "^app/",
        pathNot: "^app/features/accounts/password\\.server\\.ts$",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "browser-code-without-db",
      comment: "Code that can reach the browser bundle never imports db/ (not even its types).",
      severity: "error",
      from: { path: "^app/", pathNot: [SERVER_MODULE, TEST_FILE] },
      to: { path: "^db/" },
    },
    {
      name: "browser-scripts-without-framework",
      comment:
        "A plain browser script (app/**/*.browser.ts, decision 068) ships everything it reaches: " +
        "never a component or server code. (Packages are not in this graph: the build refuses " +
        "React and Remix, scripts/build-browser-scripts.mjs.)",
      severity: "error",
      from: { path: "\\.browser\\.ts$" },
      to: { path: ["\\.tsx$", SERVER_MODULE], reachable: true },
    },
    {
      name: "app-without-tests",
      comment: "Application code never imports test helpers.",
      severity: "error",
      from: { path: "^(app|db)/", pathNot: TEST_FILE },
      to: { path: "^tests/" },
    },
    {
      name: "no-unresolvable",
      comment: "Every relative or ~/ import resolves to a file.",
      severity: "error",
      from: {},
      to: {
        couldNotResolve: true,
        dependencyTypesNot: ["core", "npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|build|public/build|studio|\\.cache)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
