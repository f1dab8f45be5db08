import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { browserScriptEntries, buildBrowserScripts } from "../../scripts/build-browser-scripts.mjs";

// The plain browser scripts of static pages (decision 068), built as `npm run build` builds them.
const outDir = mkdtempSync(path.join(os.tmpdir(), "browser-scripts-"));
let manifest: Record<string, string>;
const entries = browserScriptEntries() as string[];

beforeAll(async () => {
  manifest = (await buildBrowserScripts(outDir)) as Record<string, string>;
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

test("every *.browser.ts entry is built under a fingerprinted name, listed in the manifest", () => {
  expect(entries.length).toBeGreaterThan(0);
  const names = entries.map((entry) => path.basename(entry, ".browser.ts")).sort();
  expect(Object.keys(manifest).sort()).toEqual(names);
  expect(JSON.parse(readFileSync(path.join(outDir, "manifest.json"), "utf8"))).toEqual(manifest);
  for (const [name, url] of Object.entries(manifest)) {
    expect(url).toMatch(new RegExp(`^/build/browser/${name}-[A-Z0-9]{8}\\.js$`));
    expect(readFileSync(path.join(outDir, path.basename(url)), "utf8").length).toBeGreaterThan(0);
  }
});

test("no browser script carries React, Remix or server code", () => {
  for (const url of Object.values(manifest)) {
    const code = readFileSync(path.join(outDir, path.basename(url)), "utf8");
    // Markers of react-dom, React itself and Node's modules (the panel's script may ask whether
    // Remix's context is on the page, so that name alone proves nothing; the build itself
    // refuses an entry that bundles Remix).
    for (const marker of ["__SECRET_INTERNALS", "react.element", "node:", "process.env"]) {
      expect(code, `${url} contains ${marker}`).not.toContain(marker);
    }
  }
});
