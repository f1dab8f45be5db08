import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The URL of a plain browser script (decision 068): `browserScriptUrl("quote-form")` for
 * app/features/quotes/quote-form.browser.ts, read from the manifest that
 * scripts/build-browser-scripts.mjs writes. Null when the script was not built (a test that
 * renders a route without a build): the page still works, as with JavaScript off.
 */
const MANIFEST = path.resolve("public/build/browser/manifest.json");

let cached: { mtimeMs: number; scripts: Record<string, string> } | null = null;

function readManifest(): Record<string, string> {
  // A production build's manifest never changes under a running server: no stat per request.
  if (cached && process.env.NODE_ENV === "production") return cached.scripts;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(MANIFEST).mtimeMs;
  } catch {
    return {};
  }
  // Re-read when the file changes: development rebuilds it on every save.
  if (cached?.mtimeMs !== mtimeMs) {
    try {
      cached = { mtimeMs, scripts: JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, string> };
    } catch {
      return cached?.scripts ?? {};
    }
  }
  return cached.scripts;
}

export function browserScriptUrl(name: string): string | null {
  return readManifest()[name] ?? null;
}
