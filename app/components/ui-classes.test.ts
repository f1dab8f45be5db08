import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { leanPrimaryButtonClass, primaryButtonClass } from "./ui-classes";

// The lean class must look exactly like the long one: the same utilities, in app/tailwind.css.
describe("leanPrimaryButtonClass", () => {
  it("applies exactly primaryButtonClass's utilities", () => {
    const css = readFileSync(path.join(__dirname, "..", "tailwind.css"), "utf8");
    const rule = new RegExp(`\\.${leanPrimaryButtonClass} \\{\\s*@apply ([^;]+);`).exec(css);
    expect(rule).not.toBeNull();
    const applied = rule![1].trim().split(/\s+/).sort();
    expect(applied).toEqual(primaryButtonClass.split(/\s+/).sort());
  });
});
