import { describe, expect, it } from "vitest";
import { hasUnreadableFormCharset, isDecodableUrl } from "../../server/request-guards.js";

describe("request guards", () => {
  it("refuse form bodies in a charset the form parser cannot read (it threw: a 500)", () => {
    expect(hasUnreadableFormCharset("application/x-www-form-urlencoded; charset=utf-16")).toBe(true);
    expect(hasUnreadableFormCharset('multipart/form-data; boundary=x; charset="UTF-32"')).toBe(true);
  });

  it("let ordinary forms and other bodies through", () => {
    expect(hasUnreadableFormCharset("application/x-www-form-urlencoded")).toBe(false);
    expect(hasUnreadableFormCharset("application/x-www-form-urlencoded; charset=UTF-8")).toBe(false);
    expect(hasUnreadableFormCharset("multipart/form-data; boundary=----x")).toBe(false);
    expect(hasUnreadableFormCharset("application/json; charset=utf-16")).toBe(false);
    expect(hasUnreadableFormCharset(undefined)).toBe(false);
  });

  it("tell decodable URLs from broken percent-encoding", () => {
    expect(isDecodableUrl("/services/weekly", "localhost")).toBe(true);
    expect(isDecodableUrl("/%", "localhost")).toBe(false);
    expect(isDecodableUrl("/services/%ED%A0%80", "localhost")).toBe(false);
    // Found by the corpus: a path that decodes to "/\…" reads as a protocol-relative URL.
    expect(isDecodableUrl("/%5C%25u4%20igX*%5B", "localhost")).toBe(false);
    expect(isDecodableUrl("/a%5Cb", "localhost")).toBe(true);
  });
});
