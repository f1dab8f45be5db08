// One lint configuration for the app, the server, the scripts and the tests: the recommended
// rules of ESLint, typescript-eslint, React, React Hooks and jsx-a11y (what Remix's own
// @remix-run/eslint-config bundles), in ESLint 9's flat format. Formatting is Prettier's job
// (`npm run format:check`); the import rules between layers are dependency-cruiser's
// (`.dependency-cruiser.cjs`).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      ".cache/**",
      ".data/**",
      "studio/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: {
      ...react.configs.flat.recommended.languageOptions,
      globals: { ...globals.browser, ...globals.node },
    },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Types are checked by tsc; prop-types would repeat them.
      "react/prop-types": "off",
      // `_name` marks a value left unused on purpose (a destructured prop, a handler's argument).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // A scrollable table region must be reachable by keyboard (axe: scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["tabpanel", "region"] }],
      // Same-site links that open in a new tab may keep the referrer; noopener is what matters.
      "react/jsx-no-target-blank": ["error", { allowReferrer: true }],
    },
  },
  {
    files: ["**/*.{js,cjs,mjs}"],
    languageOptions: { globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }] },
  },
  {
    // Kysely's migrations take an untyped database on purpose (they must not follow Database).
    files: ["db/migrations/**", "db/migrator.ts", "**/*.test.ts", "**/*.spec.ts", "tests/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      // Test helpers named use…() are Vitest fixtures, not React hooks.
      "react-hooks/rules-of-hooks": "off",
    },
  },
);
