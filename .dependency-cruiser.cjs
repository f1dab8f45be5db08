// The import rules between the app's layers (docs/decisions/002-import-rules.md). Checked by
// `npm run lint:imports`, which `npm test` runs first. A rule that blocks you usually means the
// code belongs in another folder, not that the rule needs an exception.
//
//   routes -> features -> models -> db     (a route may call a model directly for a plain read)
//   anything may use utils and content; components are presentation only; content uses utils;
//   db/ is the floor (its enums.ts imports nothing); no cycles (decision 016).
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
      comment:
        "Infrastructure knows nothing of the business: no models, features, content or routes " +
        "(content uses utils, so utils using content would run the arrow back up).",
      severity: "error",
      from: { path: "^app/utils/", pathNot: TEST_FILE },
      to: { path: ["^app/models/", "^app/features/", "^app/content/", "^app/routes/"] },
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
        "db/ (migrations, connection, enums, types, seed) is the floor: it needs nothing from app/, " +
        "not even types (decision 016). Its value lists live in db/enums.ts.",
      severity: "error",
      from: { path: "^db/", pathNot: TEST_FILE },
      to: { path: "^app/" },
    },
    {
      name: "enums-import-nothing",
      comment:
        "db/enums.ts holds the value lists of the CHECK constraints; browser code, db/schema.ts and " +
        "the features all read it, so it imports nothing at all (decision 016).",
      severity: "error",
      from: { path: "^db/enums\\.ts$" },
      to: {},
    },
    {
      name: "browser-code-without-db",
      comment:
        "Code that can reach the browser bundle never imports db/ (not even its types), but for " +
        "db/enums.ts, the value lists that import nothing.",
      severity: "error",
      from: { path: "^app/", pathNot: [SERVER_MODULE, TEST_FILE] },
      to: { path: "^db/", pathNot: "^db/enums\\.ts$" },
    },
    {
      name: "seed-only-when-seeding",
      comment:
        "The development seed is never loaded in production: the app imports it only dynamically, " +
        "when seeding is on (app/utils/db.server.ts).",
      severity: "error",
      from: { path: "^app/", pathNot: TEST_FILE },
      to: { path: "^db/seed", dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "media-below-visits",
      comment:
        "A visit's page shows its media, so features/visits may use features/media; media uses the " +
        "visits model, never the visits feature (no arrows both ways between two features).",
      severity: "error",
      from: { path: "^app/features/media/", pathNot: TEST_FILE },
      to: { path: "^app/features/visits/" },
    },
    {
      name: "no-circular",
      comment:
        "No import cycle, not even through types: a cycle means two modules are one concern, or " +
        "that something shared belongs a floor lower.",
      severity: "error",
      from: {},
      to: { circular: true },
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
