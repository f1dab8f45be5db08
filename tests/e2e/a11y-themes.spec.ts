import { expect, test, type Page } from "@playwright/test";
import { DEV_CUSTOMER, expectNoAxeViolations, signIn, useClientAddress, waitForHydration } from "./helpers";

// Every public page. Each theme and size below is audited on all of them, at two widths.
const SERVICE_SLUGS = [
  "weekly",
  "twice-weekly",
  "thrice-weekly",
  "desert-dash",
  "desert-refresh",
  "neglected-property",
  "sanitize-deodorize",
  "trash-bin-clean",
  "yard-refresh",
];
const PUBLIC_PAGES = [
  "/",
  "/services",
  ...SERVICE_SLUGS.map((slug) => `/services/${slug}`),
  "/about",
  "/contact",
  "/gallery",
  "/terms-of-service",
  "/privacy-policy",
  "/disclaimer",
  "/accessibility",
  "/auth",
];

const THEMES = [
  { name: "default", stored: {} },
  { name: "dark", stored: { "a11y-dark-mode": "true" } },
  { name: "high contrast", stored: { "a11y-high-contrast": "true" } },
  { name: "150% text", stored: { "a11y-text-size": "150" } },
] as const;

const WIDTHS = [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 900 } },
] as const;

/** Text that is cut off: the page scrolls sideways, or an element hides overflowing text. */
async function expectNothingClipped(page: Page, context: string) {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) found.push(`page scrolls sideways (${root.scrollWidth}px)`);
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const style = getComputedStyle(el);
      if (style.display === "none" || style.visibility === "hidden" || el.closest(".sr-only, [aria-hidden=true]"))
        continue;
      const clipsX = style.overflowX === "hidden" || style.overflowX === "clip";
      const clipsY = style.overflowY === "hidden" || style.overflowY === "clip";
      if (!clipsX && !clipsY) continue;
      if (!el.textContent?.trim()) continue;
      if ((clipsX && el.scrollWidth > el.clientWidth + 1) || (clipsY && el.scrollHeight > el.clientHeight + 1)) {
        found.push(`${el.tagName.toLowerCase()}.${el.className} clips its text`);
      }
    }
    return found.slice(0, 5);
  });
  expect(problems, `clipped text ${context}`).toEqual([]);
}

for (const theme of THEMES) {
  for (const width of WIDTHS) {
    test(`axe finds nothing on every public page: ${theme.name}, ${width.name}`, async ({ browser }) => {
      test.setTimeout(PUBLIC_PAGES.length * 15_000);
      const context = await browser.newContext({ viewport: width.viewport });
      await context.addInitScript((stored) => {
        for (const [key, value] of Object.entries(stored)) window.localStorage.setItem(key, value);
      }, theme.stored);
      const page = await context.newPage();
      // One report for all pages: every page is audited even when an earlier one fails.
      const failures: string[] = [];
      try {
        for (const path of PUBLIC_PAGES) {
          const where = `on ${path} (${theme.name}, ${width.name})`;
          try {
            const response = await page.goto(path);
            expect(response?.status(), `status ${where}`).toBe(200);
            await waitForHydration(page);
            await expectNoAxeViolations(page, where);
            if (theme.name === "150% text") await expectNothingClipped(page, where);
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
        }
        expect(failures.length, failures.join("\n\n")).toBe(0);

        // The shell's interactive parts, open: the accessibility dialog, and the menu on phones.
        await page.goto("/");
        await waitForHydration(page);
        await page.getByRole("button", { name: "Accessibility settings", exact: true }).click();
        await expect(page.getByRole("dialog", { name: "Accessibility" })).toBeVisible();
        await expectNoAxeViolations(page, `with the panel open (${theme.name}, ${width.name})`);
        await page.keyboard.press("Escape");
        if (width.name === "phone") {
          await page.getByText("Menu", { exact: true }).click();
          await expect(page.locator("#site-navigation")).toBeVisible();
          await expectNoAxeViolations(page, `with the menu open (${theme.name}, ${width.name})`);
        }
        await page.goto("/no-such-page");
        await expectNoAxeViolations(page, `on the 404 page (${theme.name}, ${width.name})`);
      } finally {
        await context.close();
      }
    });
  }
}

// A static page's toast (decision 075), its close button shown by its script: a failure (an
// alert, red) on /auth and a success (a status, green) on / after signing out.
for (const theme of THEMES.filter((t) => t.name === "default" || t.name === "dark")) {
  test(`axe finds nothing on static pages with a toast: ${theme.name}`, async ({ browser }) => {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: width.viewport });
      await context.addInitScript((stored) => {
        for (const [key, value] of Object.entries(stored)) window.localStorage.setItem(key, value);
      }, theme.stored);
      const page = await context.newPage();
      try {
        await useClientAddress(page);
        const close = page.getByRole("button", { name: "Close notification" });
        await page.goto("/auth/verify"); // no sign-in under way: back to /auth with a toast
        await expect(page.getByTestId("flash-toast")).toContainText("Sign in again");
        await expect(close).toBeVisible();
        await expectNoAxeViolations(page, `on /auth with an error toast (${theme.name}, ${width.name})`);

        await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
        await page.goto("/");
        const signOut = page.getByRole("button", { name: "Sign Out" });
        if (width.name === "phone") await page.getByText("Menu", { exact: true }).click();
        await signOut.filter({ visible: true }).first().click();
        await expect(page.getByTestId("flash-toast")).toContainText("Signed out");
        await expect(close).toBeVisible();
        await close.focus();
        await expectNoAxeViolations(page, `on / with a success toast (${theme.name}, ${width.name})`);
      } finally {
        await context.close();
      }
    }
  });
}
