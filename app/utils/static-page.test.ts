import { describe, expect, it } from "vitest";
import { isStaticRender, STATIC_PAGE } from "./static-page";

// The root's choice (app/root.tsx): Remix's scripts, or none (decisions 066, 075).
const root = (data: unknown) => ({ id: "root", data });
const leaf = (handle?: unknown) => ({ id: "routes/_index", handle, data: {} });
const rootData = { shell: {}, user: null, toast: undefined, preview: false, toastScript: "/build/browser/t.js" };

describe("isStaticRender", () => {
  it("is static for a static page, with or without a flash toast", () => {
    expect(isStaticRender([root(rootData), leaf(STATIC_PAGE)])).toBe(true);
    const toast = { type: "success", message: "Signed out", description: "You've been logged out successfully." };
    expect(isStaticRender([root({ ...rootData, toast }), leaf(STATIC_PAGE)])).toBe(true);
  });

  it("hydrates a live preview, a page without the handle, and an error without root data", () => {
    expect(isStaticRender([root({ ...rootData, preview: true }), leaf(STATIC_PAGE)])).toBe(false);
    expect(isStaticRender([root(rootData), leaf()])).toBe(false);
    expect(isStaticRender([root(rootData), leaf({ staticPage: "yes" })])).toBe(false);
    expect(isStaticRender([root(undefined), leaf(STATIC_PAGE)])).toBe(false);
    expect(isStaticRender([])).toBe(false);
  });

  it("follows the leaf route, not a parent", () => {
    const parent = { id: "routes/services", handle: STATIC_PAGE, data: {} };
    expect(isStaticRender([root(rootData), parent, leaf()])).toBe(false);
    expect(isStaticRender([root(rootData), { ...parent, handle: undefined }, leaf(STATIC_PAGE)])).toBe(true);
  });
});
