import net, { type AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCrossSiteWrite, refuseCrossSiteWrites } from "../../server/cross-site.js";

// The middleware in front of a stand-in for Remix that records every request reaching it.
const reached: string[] = [];
/** The Origin header of the last request that reached the stand-in. */
let reachedOrigin: string | undefined;
let base = "";
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.use(refuseCrossSiteWrites({ siteUrl: "https://www.example.com" }));
  app.all("*", (req, res) => {
    reached.push(`${req.method} ${req.originalUrl}`);
    reachedOrigin = req.headers.origin;
    res.status(204).end();
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close();
});

async function send(path: string, headers: Record<string, string>, method = "POST") {
  reached.length = 0;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: method === "GET" || method === "HEAD" ? undefined : "email=a%40b.c&password=x",
    redirect: "manual",
  });
  return { status: response.status, body: await response.text(), reachedRemix: reached.length > 0 };
}

describe("cross-site writes", () => {
  for (const path of ["/auth", "/auth?_data=routes%2Fauth", "/logout", "/admin-dashboard?index&_data=routes%2Fx"]) {
    it(`refuses another site's POST to ${path} with 403, before Remix`, async () => {
      const refused = await send(path, { Origin: "https://evil.example" });
      expect(refused).toMatchObject({ status: 403, reachedRemix: false });
      expect(refused.body).toContain("Request refused");
    });
  }

  it("refuses Origin: null and a sibling subdomain", async () => {
    expect(await send("/auth", { Origin: "null" })).toMatchObject({ status: 403, reachedRemix: false });
    expect(await send("/auth", { Origin: "https://blog.example.com" })).toMatchObject({ status: 403 });
  });

  it("lets a no-referrer page of its own post (Origin: null, Sec-Fetch-Site: same-origin), no other", async () => {
    expect(await send("/auth/verify-email", { Origin: "null", "Sec-Fetch-Site": "same-origin" })).toMatchObject({
      status: 204,
      reachedRemix: true,
    });
    // Remix would throw on "null": it gets no Origin at all.
    expect(reachedOrigin).toBeUndefined();
    for (const site of ["cross-site", "same-site", "none"]) {
      expect(await send("/auth/verify-email", { Origin: "null", "Sec-Fetch-Site": site })).toMatchObject({
        status: 403,
        reachedRemix: false,
      });
    }
  });

  it("refuses every writing method, and uses Sec-Fetch-Site when there is no Origin", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect(await send("/auth", { Origin: "https://evil.example" }, method)).toMatchObject({ status: 403 });
    }
    expect(await send("/auth", { "Sec-Fetch-Site": "cross-site" })).toMatchObject({ status: 403 });
    expect(await send("/auth", { "Sec-Fetch-Site": "same-site" })).toMatchObject({ status: 403 });
  });

  it("lets the site's own posts through: the host it was reached at, same-origin fetches", async () => {
    // SITE_URL's origin on a request that reached another host: Remix's own check would throw
    // (a 500), so it is refused here instead.
    expect(await send("/auth", { Origin: "https://www.example.com" })).toMatchObject({
      status: 403,
      reachedRemix: false,
    });
    expect(await send("/auth", { Origin: base })).toMatchObject({ status: 204, reachedRemix: true });
    expect(await send("/auth", { "Sec-Fetch-Site": "same-origin" })).toMatchObject({ status: 204 });
    // Not a browser (curl, a monitor): nothing says another site sent it.
    expect(await send("/auth", {})).toMatchObject({ status: 204, reachedRemix: true });
  });

  it("lets reads through from anywhere", async () => {
    expect(await send("/auth", { Origin: "https://evil.example" }, "GET")).toMatchObject({ status: 204 });
    expect(await send("/auth", { "Sec-Fetch-Site": "cross-site" }, "HEAD")).toMatchObject({ status: 204 });
  });

  it("exempts the webhooks, which verify signatures", async () => {
    expect(await send("/resources/sanity-webhook", { Origin: "https://api.sanity.io" })).toMatchObject({
      status: 204,
      reachedRemix: true,
    });
    expect(await send("/resources/webhooks/cal", { Origin: "null" })).toMatchObject({ status: 204 });
    expect(isCrossSiteWrite({ method: "POST", path: "/resources/webhooksx", headers: { origin: "null" } }, [])).toBe(
      true,
    );
  });
});

/**
 * A request written byte for byte on a socket: fetch (and every browser) resolves `..` and
 * `%2e%2e` before sending, so only a raw client sends the path an attacker would.
 */
function rawPost(baseUrl: string, target: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(baseUrl);
  const body = "email=a%40b.c&password=x";
  const lines = [
    `POST ${target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Content-Type: application/x-www-form-urlencoded",
    `Content-Length: ${body.length}`,
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
  });
}

describe("the guard decides on the path Remix will route (issue 35 item 6)", () => {
  const evil = { Origin: "https://evil.example", "Stripe-Signature": "t=1,v1=dummy" };
  const disguised = [
    "/resources/webhooks/../../customer-dashboard/billing?_data=routes%2Fcustomer-dashboard_.billing._index",
    "/resources/webhooks/%2e%2e/%2e%2e/customer-dashboard/billing",
    "/resources/webhooks/.%2E/%2e./customer-dashboard/billing",
    "/resources/webhooks/stripe/../../../auth",
    "/resources/webhooks\\..\\..\\logout",
    "/resources/webhooks//..//..//logout",
    "/resources/sanity-webhook/../../auth",
    "/resources/webhooks/stripe/..%2F..%2F..%2Fauth",
  ];
  for (const target of disguised) {
    it(`refuses another site's raw POST ${target}, before Remix`, async () => {
      reached.length = 0;
      const refused = await rawPost(base, target, evil);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain("Request refused");
      expect(reached).toEqual([]);
    });
  }

  it("a webhook reached through a path that resolves to it is still exempt", async () => {
    reached.length = 0;
    const passed = await rawPost(base, "/customer-dashboard/../resources/webhooks/stripe", evil);
    expect(passed.status).toBe(204);
    expect(reached).toHaveLength(1);
    // Remix does not merge double slashes (that is its 404 route), so neither does the guard.
    reached.length = 0;
    expect((await rawPost(base, "/resources//webhooks/stripe", evil)).status).toBe(403);
    expect(reached).toEqual([]);
  });
});
