import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";

// Decision 066: the public content pages ship no framework to an anonymous visitor; their
// interactive parts are a plain browser script (the accessibility panel, decision 074), inline
// script (compare sliders) or plain HTML (small-screen menu). Pages with forms stay hydrated.

const STATIC_PAGES = ["/", "/services", "/services/weekly", "/about", "/gallery", "/privacy-policy"];
const HYDRATED_PAGES = ["/contact", "/auth"];

/** Every script URL the page asked for. */
function collectScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") urls.push(request.url());
  });
  return urls;
}

const trigger = (page: Page) => page.getByRole("button", { name: "Accessibility settings", exact: true });
const dialog = (page: Page) => page.getByRole("dialog", { name: "Accessibility" });

for (const path of STATIC_PAGES) {
  test(`${path} loads no app JavaScript and no copy of its loader data`, async ({ page }) => {
    const scripts = collectScripts(page);
    const response = await page.goto(path);
    expect(response!.status()).toBe(200);
    const html = await response!.text();
    expect(html).not.toContain("__remixContext");
    expect(html).not.toContain('rel="modulepreload"');
    // The one script is the accessibility panel's plain browser script: no framework.
    expect(scripts.map((url) => new URL(url).pathname)).toEqual([
      expect.stringMatching(/^\/build\/browser\/accessibility-panel\.browser-[A-Z0-9]+\.js$/),
    ]);
    // The panel still works: its script has turned the link into the button.
    await waitForHydration(page);
    await trigger(page).click();
    await expect(dialog(page)).toBeVisible();
  });
}

test("/ stays within issue 15's 40 KB of HTML, and the panel's script is cached for good", async ({ request }) => {
  const html = await (await request.get("/")).text();
  expect(Buffer.byteLength(html, "utf8")).toBeLessThanOrEqual(40 * 1024);
  // Decision 074: the panel's behaviour is one fingerprinted file, not inline in every page.
  const src = /<script type="module" src="(\/build\/browser\/accessibility-panel[^"]+)"/.exec(html)?.[1];
  expect(src).toBeTruthy();
  const script = await request.get(src!);
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toContain("javascript");
  expect(script.headers()["cache-control"]).toContain("immutable");
});

for (const path of HYDRATED_PAGES) {
  test(`${path} is hydrated, and the panel works there too`, async ({ page }) => {
    const scripts = collectScripts(page);
    await page.goto(path);
    await waitForHydration(page);
    expect(scripts.some((url) => url.includes("/build/"))).toBe(true);
    await trigger(page).click();
    await expect(dialog(page)).toBeVisible();
    await dialog(page).getByRole("switch", { name: "Dark Mode" }).click();
    await expect(dialog(page).getByRole("switch", { name: "Dark Mode" })).toHaveAttribute("aria-checked", "true");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(trigger(page)).toBeFocused();
    // A client-side navigation keeps the panel (it lives in the root layout) and its state.
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    await trigger(page).click();
    await expect(dialog(page).getByRole("switch", { name: "Dark Mode" })).toHaveAttribute("aria-checked", "true");
  });
}

test("a static page with a flash toast is hydrated to show it", async ({ page }) => {
  await page.goto("/auth");
  await waitForHydration(page);
  await page.getByLabel("Email").fill("customer@example.com");
  await page.getByLabel("Password").fill("customer-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/customer-dashboard$/);
  // / is static: its Sign Out button is a plain form post, answered by a redirect to / with a
  // flash toast; that render loads React to show the toast.
  await page.goto("/");
  const scripts = collectScripts(page);
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await waitForHydration(page);
  await expect(page.locator("[data-sonner-toast]").first()).toContainText("Signed out");
  expect(scripts.some((url) => url.includes("/build/"))).toBe(true);
});
