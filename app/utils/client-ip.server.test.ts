import { afterEach, describe, expect, it, vi } from "vitest";
import { getClientKey } from "./client-ip.server";

const withHeaders = (headers: Record<string, string>) => new Request("http://localhost/", { headers });
const PEER = { clientAddress: "192.0.2.50" };
const FORGED = { "Fly-Client-IP": "198.51.100.7", "X-Forwarded-For": "203.0.113.9, 10.0.0.1" };

afterEach(() => {
  vi.unstubAllEnvs();
});

function stub(env: { FLY_APP_NAME?: string; TRUST_PROXY?: string }) {
  vi.stubEnv("FLY_APP_NAME", env.FLY_APP_NAME ?? "");
  vi.stubEnv("TRUST_PROXY", env.TRUST_PROXY ?? "");
}

describe("getClientKey", () => {
  it("off Fly and without TRUST_PROXY, believes no header: the TCP peer", () => {
    stub({});
    expect(getClientKey(withHeaders(FORGED), PEER)).toBe("192.0.2.50");
  });

  it("on Fly (FLY_APP_NAME set), takes Fly-Client-IP", () => {
    stub({ FLY_APP_NAME: "swift-scoop" });
    expect(getClientKey(withHeaders(FORGED), PEER)).toBe("198.51.100.7");
    // Without the header (a health check from inside), the peer.
    expect(getClientKey(withHeaders({}), PEER)).toBe("192.0.2.50");
  });

  it("with TRUST_PROXY=n, takes the n-th X-Forwarded-For entry from the right", () => {
    stub({ TRUST_PROXY: "1" });
    expect(getClientKey(withHeaders({ "X-Forwarded-For": "6.6.6.6, 203.0.113.9" }), PEER)).toBe("203.0.113.9");
    stub({ TRUST_PROXY: "2" });
    expect(getClientKey(withHeaders({ "X-Forwarded-For": "6.6.6.6, 203.0.113.9 , 10.0.0.1" }), PEER)).toBe(
      "203.0.113.9",
    );
    expect(getClientKey(withHeaders({ "X-Forwarded-For": "2001:DB8::1, 10.0.0.1" }), PEER)).toBe("2001:db8:0:0::/64");
    // Fewer entries than trusted proxies: the header did not come through them all.
    expect(getClientKey(withHeaders({ "X-Forwarded-For": "203.0.113.9" }), PEER)).toBe("192.0.2.50");
  });

  it("ignores Fly-Client-IP off Fly even with TRUST_PROXY", () => {
    stub({ TRUST_PROXY: "1" });
    expect(getClientKey(withHeaders({ "Fly-Client-IP": "198.51.100.7" }), PEER)).toBe("192.0.2.50");
  });

  it("falls through to the peer when a header is not an address", () => {
    stub({ FLY_APP_NAME: "swift-scoop", TRUST_PROXY: "1" });
    expect(getClientKey(withHeaders({ "Fly-Client-IP": "x".repeat(500), "X-Forwarded-For": "nope" }), PEER)).toBe(
      "192.0.2.50",
    );
  });

  it("reports an IPv4 peer on a dual-stack socket as plain IPv4", () => {
    stub({});
    expect(getClientKey(withHeaders({}), { clientAddress: "::ffff:192.0.2.8" })).toBe("192.0.2.8");
  });

  it("answers 'unknown' only when there is no connection at all", () => {
    stub({});
    expect(getClientKey(withHeaders(FORGED), {})).toBe("unknown");
  });

  it("keys IPv6 addresses by their /64: one host rotating through its network is one client", () => {
    stub({ TRUST_PROXY: "1" });
    const key = (address: string) => getClientKey(withHeaders({ "X-Forwarded-For": address }), PEER);
    expect(key("2001:db8:aa:bb::1")).toBe("2001:db8:aa:bb::/64");
    expect(key("2001:0DB8:00aa:00bb:ffff:ffff:ffff:fffe")).toBe("2001:db8:aa:bb::/64");
    expect(key("2001:db8:aa:bc::1")).toBe("2001:db8:aa:bc::/64");
    expect(key("::1")).toBe("0:0:0:0::/64");
    expect(key("fe80::1")).toBe("fe80:0:0:0::/64");
    expect(key("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(key("2001:db8:1::7")).toBe("2001:db8:1:0::/64");
    stub({});
    expect(getClientKey(withHeaders({}), { clientAddress: "2001:db8:aa:bb:1:2:3:4" })).toBe("2001:db8:aa:bb::/64");
  });
});
