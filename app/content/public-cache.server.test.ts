import { describe, expect, test } from "vitest";
import { publicCacheHeaders } from "./public-cache.server";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "~/utils/cache-headers";

describe("a public page's loader headers", () => {
  test("visitors without cookies get a shareable, stale-while-revalidate response", () => {
    const headers = publicCacheHeaders(new Request("http://localhost/services"));
    expect(headers.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(headers.get("Vary")).toBe("Cookie");
  });

  test("a visitor with a cookie (maybe signed in) gets a private response", () => {
    const request = new Request("http://localhost/services", { headers: { Cookie: "__session=abc" } });
    expect(publicCacheHeaders(request).get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });
});
