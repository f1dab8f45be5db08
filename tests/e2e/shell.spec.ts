import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, waitForHydration } from "./helpers";

test.describe("security headers", () => {
  test("the home page carries the policy", async ({ request }) => {
    const response = await request.get("/");
    expect(response.status()).toBe(200);
    const headers = response.headers();
    const csp = headers["content-security-policy"];
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src"))!;
    // Rendered for this visitor: a nonce; served from the page cache: the inline scripts' hashes.
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'|'sha256-[A-Za-z0-9+/=]{44}'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["x-powered-by"]).toBeUndefined();
  });

  test("every inline script carries this response's nonce", async ({ request }) => {
    // A cookie keeps the page out of the page cache (its policy uses hashes: page-cache.spec.ts).
    const response = await request.get("/", { headers: { Cookie: "unrelated=1" } });
    const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"])![1];
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    const again = await request.get("/", { headers: { Cookie: "unrelated=1" } });
    expect(again.headers()["content-security-policy"]).not.toContain(nonce);
  });

  test("fingerprinted assets are immutable and the favicon is served", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const css = /href="(\/build\/_assets\/[^"]+\.css)"/.exec(html)![1];
    const asset = await request.get(css);
    expect(asset.status()).toBe(200);
    expect(asset.headers()["cache-control"]).toContain("immutable");
    expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
    const favicon = await request.get("/favicon.svg");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
  });

  test("the health check answers", async ({ request }) => {
    const response = await request.get("/resources/healthcheck");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("OK");
  });
});

test.describe("document shell", () => {
  test("the skip link is the first focusable element and moves focus to main @phone", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main-content")).toBeFocused();
  });

  test("the nav has the pages, social links, Book Now and Sign In", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of ["Home", "Services", "About", "Contact"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    for (const name of ["Facebook", "Instagram", "TikTok", "YouTube"]) {
      await expect(nav.getByRole("link", { name: new RegExp(name) })).toHaveAttribute("href", /^https:\/\//);
    }
    await expect(nav.getByRole("link", { name: "Book Now" })).toHaveAttribute("href", "/contact");
    await expect(nav.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
  });

  test("the footer has contact info, promises and legal links", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: /^\(\d{3}\)/ })).toHaveAttribute("href", /^tel:\+1\d{10}$/);
    await expect(footer.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
    for (const name of ["Terms of Service", "Privacy Policy", "Disclaimer", "Accessibility"]) {
      await expect(footer.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(footer.getByRole("heading", { name: "Our promise" })).toBeVisible();
  });

  test("the small-screen menu opens, closes, and closes when a link is followed @phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await waitForHydration(page);
    const toggle = page.getByText("Menu", { exact: true });
    const menu = page.locator("#site-navigation");
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await toggle.click();
    await expect(menu).toBeHidden();
    await toggle.click();
    await menu.getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(menu).toBeHidden();
  });

  test("the small-screen menu closes when its link is the page already shown @phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/about");
    await waitForHydration(page);
    const menu = page.locator("#site-navigation");
    await page.getByText("Menu", { exact: true }).click();
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(menu).toBeHidden();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the small-screen menu still opens and its links work @phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const menu = page.locator("#site-navigation");
    await expect(menu).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Contact", exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.locator("#site-navigation")).toBeHidden();
  });

  test("the 404 page renders on the server", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    // Search results and shared links describe the 404 too (app/routes/$.tsx), in the server's HTML.
    const html = (await response?.text()) ?? "";
    expect(html).toMatch(
      /<meta name="description" content="The page you asked for does not exist\. Return to the home page to find our services\."\/>/,
    );
    await expect(page.locator('meta[name="description"]')).toHaveCount(1);
    await expect(page).toHaveTitle(/Page not found/);
  });
});

test.describe("errors", () => {
  test("unknown routes answer 404 with a link home", async ({ page }) => {
    const response = await page.goto("/this-page-does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("a server error shows the generic page with status 500 and no stack trace", async ({ page }) => {
    const response = await page.goto("/test-only/error");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
    const html = await page.content();
    expect(html).not.toContain("Deliberate error");
    expect(html).not.toMatch(/at .*\.js:\d+/);
  });
});

test.describe("accessibility of the shell", () => {
  for (const [label, size] of [
    ["wide", { width: 1280, height: 900 }],
    ["narrow", { width: 375, height: 812 }],
  ] as const) {
    test(`axe finds nothing on the home page and the 404 page (${label})`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto("/");
      await expectNoAxeViolations(page, `on / (${label})`);
      if (label === "narrow") {
        await page.getByText("Menu", { exact: true }).click();
        await expectNoAxeViolations(page, `on / with the menu open (${label})`);
      }
      await page.goto("/missing-page");
      await expectNoAxeViolations(page, `on the 404 page (${label})`);
    });
  }
});
