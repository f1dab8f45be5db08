import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { waitForHydration } from "./helpers";

// Anonymous visitors get public pages from the page cache (server/page-cache.js), whose policy
// allows the page's inline scripts by hash instead of a per-response nonce.

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

for (const path of ["/", "/services", "/services/weekly", "/contact"]) {
  test(`a cached ${path} hydrates, every inline script allowed by its hash, no CSP violation`, async ({
    page,
    request,
  }) => {
    await request.get(path); // fills the cache if nobody has yet
    await page.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        w.__violations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const consoleViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) consoleViolations.push(message.text());
    });
    const response = await page.goto(path);
    expect(response!.headers()["x-page-cache"]).toBe("HIT");
    const policy = response!.headers()["content-security-policy"];
    const scriptSrc = policy.split(";").find((d) => d.trim().startsWith("script-src"))!;
    expect(scriptSrc).not.toContain("nonce-");
    expect(scriptSrc).not.toContain("unsafe-inline");
    const html = await response!.text();
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes]) => !/\ssrc=/.test(attributes) && !/application\/(ld\+)?json/.test(attributes),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , body] of inline) expect(scriptSrc).toContain(sha256(body));

    await waitForHydration(page); // Remix's inline module script ran
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(consoleViolations).toEqual([]);
  });
}

test("the nonce left in a cached page's bytes runs nothing", async ({ page, request }) => {
  await request.get("/about");
  const response = await page.goto("/about");
  expect(response!.headers()["x-page-cache"]).toBe("HIT");
  const staleNonce = /<script nonce="([^"]+)"/.exec(await response!.text())?.[1];
  expect(staleNonce).toBeTruthy();
  await waitForHydration(page);
  const ran = await page.evaluate((nonce) => {
    const script = document.createElement("script");
    script.nonce = nonce;
    script.textContent = "window.__injected = true";
    document.body.append(script);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  }, staleNonce!);
  expect(ran).toBe(false);
});

test("a visitor with a cookie gets a freshly rendered page with this response's nonce", async ({ page, context }) => {
  await context.addCookies([{ name: "unrelated", value: "1", url: test.info().project.use.baseURL! }]);
  const response = await page.goto("/services");
  expect(response!.headers()["x-page-cache"]).toBeUndefined();
  expect(response!.headers()["cache-control"]).toBe("private, no-store");
  const nonce = /'nonce-([^']+)'/.exec(response!.headers()["content-security-policy"])![1];
  expect(await response!.text()).toContain(`nonce="${nonce}"`);
  await waitForHydration(page);
});
