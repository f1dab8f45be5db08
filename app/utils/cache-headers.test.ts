import { describe, expect, test } from "vitest";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, publicPageHeaders } from "./cache-headers";

const headersOf = (init: Record<string, string>) => new Headers(init);

describe("public page caching", () => {
  test("the document keeps the loader's policy unless a cookie is being set", () => {
    const loaderHeaders = headersOf({ "Cache-Control": PUBLIC_CACHE_CONTROL });
    const args = { loaderHeaders, actionHeaders: new Headers(), errorHeaders: undefined };
    const shared = new Headers(publicPageHeaders({ ...args, parentHeaders: new Headers() }));
    expect(shared.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    const withToast = new Headers(
      publicPageHeaders({ ...args, parentHeaders: headersOf({ "Set-Cookie": "toast=1" }) }),
    );
    expect(withToast.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });
});
