import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// autocomplete="street-address" is for a <textarea> (an address may span lines); on an <input> it
// is invalid HTML, and browsers fill line 1 through address-line1 (issue 16, smaller defects).
// Every form in the app uses <input> for the street, so the token must not appear at all.
const appDir = path.resolve(import.meta.dirname, "../../app");

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(full);
    return entry.name.endsWith(".tsx") ? [full] : [];
  });
}

describe("address fields", () => {
  it('no form field asks for autocomplete "street-address"', () => {
    const offenders = tsxFiles(appDir).filter((file) =>
      /autoComplete(=|:\s*)\{?\s*["']street-address["']/.test(readFileSync(file, "utf8")),
    );
    expect(offenders.map((file) => path.relative(appDir, file))).toEqual([]);
  });

  it("the quote form and the yard form fill the street from address-line1", () => {
    for (const file of ["features/quotes/quote-form.tsx", "features/yards/yard-form.tsx"])
      expect(readFileSync(path.join(appDir, file), "utf8"), file).toMatch(/autoComplete(=|:\s*)"address-line1"/);
  });
});
