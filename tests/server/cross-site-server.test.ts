import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAppServer, type AppServer } from "../helpers/app-server";

/**
 * The cross-site guard of the real server (node server.js, its own middleware and build), sent
 * the attack of issue 35 item 6 with a raw client: another site's POST to
 * `/resources/webhooks/../../customer-dashboard/billing?_data=…` with a dummy signature header.
 * The raw path looks like a webhook (exempt, signature header present), but Remix routes the
 * billing page's action: it reached it (its redirect to /auth for a visitor who is not signed
 * in), and is now refused with 403 before Remix. fetch and browsers resolve `..` before
 * sending, so the request is written on a socket byte for byte.
 */
const NO_DATABASE = "postgres://nobody@127.0.0.1:9/none";

function rawPost(baseUrl: string, target: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(baseUrl);
  const body = "intent=pay";
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

describe("server.js: the cross-site guard decides on the routed path", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer({ SITE_URL: "https://www.example.com", DATABASE_URL: NO_DATABASE });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const evil = { Origin: "https://evil.example", "Stripe-Signature": "t=1,v1=dummy" };
  for (const target of [
    "/resources/webhooks/../../customer-dashboard/billing?_data=routes%2Fcustomer-dashboard_.billing._index",
    "/resources/webhooks/%2e%2e/%2E%2e/customer-dashboard/billing?_data=routes%2Fcustomer-dashboard_.billing._index",
    "/resources/webhooks\\..\\..\\customer-dashboard/billing",
  ]) {
    test(`another site's raw POST ${target}: 403 before Remix`, async () => {
      const refused = await rawPost(app.url, target, evil);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain("Request refused");
      expect(refused.text).not.toContain("X-Remix");
    });
  }

  test("the site's own POST to the same raw path still reaches Remix (the billing page's action)", async () => {
    const own = await rawPost(
      app.url,
      "/resources/webhooks/../../customer-dashboard/billing?_data=routes%2Fcustomer-dashboard_.billing._index",
      { Origin: app.url, "Stripe-Signature": "t=1,v1=dummy" },
    );
    // The billing action ran: a visitor who is not signed in is sent to sign in.
    expect(own.status).toBe(204);
    expect(own.text).toMatch(/^x-remix-redirect: \/auth\r$/im);
    expect(own.text).not.toContain("Request refused");
  });
});
