import { expect, test, type Page } from "@playwright/test";
import { DEV_CUSTOMER, signIn, useClientAddress, waitForHydration } from "./helpers";

// Decision 066: the public content pages ship no framework to an anonymous visitor; their
// interactive parts are a plain browser script (the accessibility panel, decision 074), inline
// script (compare sliders) or plain HTML (small-screen menu). The pages with forms are static
// too, each with its form's plain script (decision 068: /contact in
// tests/e2e/quote-form-script.spec.ts; /auth and the account pages in tests/e2e/auth-pages.spec.ts).
// The 404 page is still hydrated (its links go back into the app).

const STATIC_PAGES = [
  "/",
  "/services",
  "/services/weekly",
  "/about",
  "/gallery",
  "/privacy-policy",
  "/contact",
  "/auth",
];
const HYDRATED_PAGES = ["/no-such-page"];

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
    // Only plain browser scripts (decision 068), the accessibility panel's among them (074),
    // never Remix's modules.
    const paths = scripts.map((url) => new URL(url).pathname);
    expect(paths.filter((path) => !path.startsWith("/build/browser/"))).toEqual([]);
    expect(paths).toContainEqual(expect.stringMatching(/^\/build\/browser\/accessibility-panel-[A-Z0-9]+\.js$/));
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

// Decision 075: a toast does not hydrate a static page. The server's live region stays, and a
// plain script (static-toast.browser.ts, loaded only with a toast) gives it a close button.
const toastBox = (page: Page) => page.locator("[data-static-toast]");
const closeButton = (page: Page) => page.getByRole("button", { name: "Close notification" });

test("a static page with a flash toast stays static; its toast closes by keyboard, focus goes back", async ({
  page,
}) => {
  await useClientAddress(page);
  await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
  await expect(page).toHaveURL(/\/customer-dashboard$/);
  // / is static: its Sign Out button is a plain form post, answered by a redirect to / with a
  // flash toast.
  await page.goto("/");
  const scripts = collectScripts(page);
  const [answer] = await Promise.all([
    page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/" && response.request().method() === "GET",
    ),
    page.getByRole("navigation", { name: "Main" }).first().getByRole("button", { name: "Sign Out" }).click(),
  ]);
  await expect(page).toHaveURL(/\/$/);
  const html = await answer.text();
  expect(html).not.toContain("__remixContext");
  expect(html).not.toContain('rel="modulepreload"');
  const toast = page.getByTestId("flash-toast");
  await expect(toast).toContainText("Signed out");
  await expect(toast).toHaveAttribute("role", "status");
  // No Remix module: the toast's own plain script and the accessibility panel's (074).
  await expect(closeButton(page)).toBeVisible();
  expect(scripts.map((url) => new URL(url).pathname).sort()).toEqual([
    expect.stringMatching(/^\/build\/browser\/accessibility-panel-/),
    expect.stringMatching(/^\/build\/browser\/static-toast-/),
  ]);

  // The button is at least 24 by 24 px (WCAG 2.5.8) and comes next in the tab order after the
  // accessibility button, the last control before it; Enter closes the toast and focus returns.
  const box = await closeButton(page).boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(24);
  expect(box!.height).toBeGreaterThanOrEqual(24);
  await waitForHydration(page);
  await trigger(page).focus();
  await page.keyboard.press("Tab");
  await expect(closeButton(page)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(toastBox(page)).toHaveCount(0);
  await expect(trigger(page)).toBeFocused();
  // The page itself is fine after closing: the panel still works.
  await page.keyboard.press("Enter");
  await expect(dialog(page)).toBeVisible();
});

test("a refusal's toast on a static page closes with the mouse, or with Escape", async ({ page }) => {
  await useClientAddress(page);
  const scripts = collectScripts(page);
  await page.goto("/auth");
  await page.getByLabel("Email").fill(DEV_CUSTOMER.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  const toast = page.getByTestId("flash-toast");
  await expect(toast).toContainText("Login failed");
  await expect(toast).toHaveAttribute("role", "alert");
  expect(scripts.every((url) => new URL(url).pathname.startsWith("/build/browser/"))).toBe(true);
  await closeButton(page).click();
  await expect(toastBox(page)).toHaveCount(0);
  // Focus did not fall to <body>: the next Tab goes on from where the visitor was.
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);

  // Escape, with focus in the toast: focus returns to the field it came from.
  await page.getByLabel("Password").fill("still-not-the-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(toast).toContainText("Login failed");
  await page.getByLabel("Email").focus();
  await closeButton(page).focus();
  await page.keyboard.press("Escape");
  await expect(toastBox(page)).toHaveCount(0);
  await expect(page.getByLabel("Email")).toBeFocused();
});

test("without JavaScript the toast shows with no close button", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto("/auth/verify"); // no sign-in under way: back to /auth with a toast
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByTestId("flash-toast")).toContainText("Sign in again");
    await expect(page.locator("[data-toast-close]")).toBeHidden();
    await expect(closeButton(page)).toHaveCount(0);
  } finally {
    await context.close();
  }
});
