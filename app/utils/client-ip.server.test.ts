import { describe, expect, it } from "vitest";
import { getClientIp } from "./client-ip.server";

const withHeaders = (headers: Record<string, string>) => new Request("http://localhost/", { headers });

describe("getClientIp", () => {
  it("prefers Fly-Client-IP, which Fly's proxy sets and clients cannot forge", () => {
    expect(getClientIp(withHeaders({ "Fly-Client-IP": "198.51.100.7", "X-Forwarded-For": "203.0.113.9" }))).toBe(
      "198.51.100.7",
    );
  });

  it("else takes the first X-Forwarded-For entry", () => {
    expect(getClientIp(withHeaders({ "X-Forwarded-For": " 203.0.113.9 , 10.0.0.1" }))).toBe("203.0.113.9");
    expect(getClientIp(withHeaders({ "X-Forwarded-For": "2001:db8::1" }))).toBe("2001:db8::1");
  });

  it("answers 'unknown' without a usable address", () => {
    expect(getClientIp(withHeaders({}))).toBe("unknown");
    expect(getClientIp(withHeaders({ "X-Forwarded-For": "not-an-ip, 10.0.0.1" }))).toBe("unknown");
    expect(getClientIp(withHeaders({ "Fly-Client-IP": "x".repeat(500) }))).toBe("unknown");
  });
});
