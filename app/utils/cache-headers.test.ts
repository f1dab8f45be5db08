import { describe, expect, test } from "vitest";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, publicCacheHeaders, publicPageHeaders } from "./cache-headers";

const headersOf = (init: Record<string, string>) => new Headers(init);

describe("public page caching", () => {
  test("visitors without cookies get a shareable, stale-while-revalidate response", () => {
    const headers = publicCacheHeaders(new Request("http://localhost/services"));
    expect(headers.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(headers.get("Vary")).toBe("Cookie");
  });

  test("a visitor with a cookie (maybe signed in) gets a private response", () => {
    const request = new Request("http://localhost/services", { headers: { Cookie: "__session=abc" } });
    expect(publicCacheHeaders(request).get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });

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
