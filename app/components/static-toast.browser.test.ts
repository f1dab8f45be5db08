import { gzipSync } from "node:zlib";
import { bundleBrowserScript } from "../../scripts/build-browser-scripts.mjs";
import { describe, expect, it } from "vitest";

// The toast's behaviour is tested with its markup in flash-toast.test.tsx (jsdom, where esbuild
// cannot run) and in the browser (tests/e2e/static-pages.spec.ts).
describe("the toast's bundle", () => {
  it("has no React, Remix or server code, and stays under 1 KB of gzip", async () => {
    const result = await bundleBrowserScript("app/components/static-toast.browser.ts");
    expect(Object.keys(result.metafile!.inputs)).toEqual(["app/components/static-toast.browser.ts"]);
    expect(gzipSync(result.outputFiles![0].contents, { level: 9 }).length).toBeLessThan(1024);
  });
});
