import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

// The toast's behaviour is tested with its markup in flash-toast.test.tsx (jsdom, where esbuild
// cannot run) and in the browser (tests/e2e/static-pages.spec.ts).
describe("the toast's bundle", () => {
  it("has no React, Remix or server code, and stays under 1 KB of gzip", async () => {
    // As scripts/build-browser-scripts.mjs bundles it.
    const result = await esbuild.build({
      absWorkingDir: path.resolve(import.meta.dirname, "../.."),
      entryPoints: ["app/components/static-toast.browser.ts"],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: ["es2020"],
      minify: true,
      metafile: true,
      write: false,
      logLevel: "silent",
    });
    expect(Object.keys(result.metafile.inputs)).toEqual(["app/components/static-toast.browser.ts"]);
    expect(gzipSync(result.outputFiles[0].contents, { level: 9 }).length).toBeLessThan(1024);
  });
});
