import { describe, expect, it } from "vitest";
import { publicPageHeaders } from "~/utils/cache-headers";
import { withQuoteActionHeaders } from "./quote-headers";

const headers = withQuoteActionHeaders(publicPageHeaders);
const args = (actionHeaders: Headers) => ({
  loaderHeaders: new Headers({ "Cache-Control": "public, max-age=60" }),
  parentHeaders: new Headers(),
  actionHeaders,
  errorHeaders: undefined,
});

describe("the /contact page headers", () => {
  it("stay public for the plain page", () => {
    const result = new Headers(headers(args(new Headers())));
    expect(result.get("Cache-Control")).toBe("public, max-age=60");
    expect(result.has("Retry-After")).toBe(false);
  });

  it("make a rejected post private and keep a 429's Retry-After", () => {
    const result = new Headers(
      headers(args(new Headers({ "Content-Type": "application/json; charset=utf-8", "Retry-After": "420" }))),
    );
    expect(result.get("Cache-Control")).toBe("private, no-store");
    expect(result.get("Retry-After")).toBe("420");
  });
});
