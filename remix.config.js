/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Bundled into the server build, so that production installs none of them: the package declares
  // an optional peer on \`sanity\` (the whole Studio), which npm would install beside the dev-only
  // copy the schema test uses (decision 013).
  serverDependenciesToBundle: ["@sanity/preview-url-secret", "@sanity/uuid", "uuid"],
  tailwind: true,
  postcss: true,
  // The app imports db/ (outside app/) for migrations and types; watch it in development.
  watchPaths: ["./db/**/*.ts"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
