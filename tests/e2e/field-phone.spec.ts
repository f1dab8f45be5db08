import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations, expectToast, isolateBrowser, signInAsAdmin, waitForHydration } from "./helpers";

const PHOTO = path.resolve(import.meta.dirname, "../fixtures/yard-before.jpg");

// Issue 26, item 6: Today and the visit page on the smallest common phone (360 px wide). The
// development seed gives Morgan Mesa a visit today and a mobile number (+1 702 555 0148).
test.use({ viewport: { width: 360, height: 740 } });

test.beforeEach(async ({ page, context }) => {
  await isolateBrowser(page, context);
});

/** Nothing wider than the phone: no sideways scrolling. */
async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

/** Every visible button (and link drawn as one) is at least 44 px tall (WCAG 2.5.8; the house's 44). */
async function expectTallButtons(page: Page, scope = page.locator("main")) {
  const heights = await scope.locator('button, a.admin-btn, input[type="submit"]').evaluateAll((elements) =>
    elements
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map((element) => ({
        name: element.textContent?.trim() ?? "",
        height: element.getBoundingClientRect().height,
      })),
  );
  expect(heights.length).toBeGreaterThan(0);
  expect(heights.filter((button) => button.height < 44)).toEqual([]);
}

test("on a 360 px phone, Today and a visit page fit, call the customer and take a photo", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin-dashboard/visits/today");
  await expect(page.getByRole("heading", { name: "Today", level: 2 })).toBeVisible();
  const card = page.locator('li[id^="stop-"]').filter({ hasText: "Morgan Mesa" }).first();
  const call = card.getByRole("link", { name: /Call Morgan Mesa/ });
  await expect(call).toHaveAttribute("href", "tel:+17025550148");
  await expect(call).toContainText("(702) 555-0148");
  // The card's big buttons: "On my way" (a scheduled visit) and "Open visit".
  await expect(card.getByRole("button", { name: /On my way/ })).toBeVisible();
  await expectNoOverflow(page);
  await expectTallButtons(page);
  await expectNoAxeViolations(page, "on Today at 360 px");

  await card.getByRole("link", { name: /Open visit/ }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("link", { name: "(702) 555-0148" })).toHaveAttribute("href", "tel:+17025550148");
  for (const imageType of ["before", "after"]) {
    const camera = page.locator(`#${imageType}-camera`);
    await expect(camera).toHaveAttribute("type", "file");
    await expect(camera).toHaveAttribute("accept", "image/*");
    await expect(camera).toHaveAttribute("capture", "environment");
    // The same form, the same field name: the same upload path as "Before/After Image/Video".
    expect(await camera.evaluate((input: HTMLInputElement) => input.name)).toBe(imageType);
    expect(
      await camera.evaluate(
        (input: HTMLInputElement, type) =>
          input.form !== null && input.form === (document.getElementById(`${type}-file`) as HTMLInputElement).form,
        imageType,
      ),
    ).toBe(true);
  }
  await expect(page.getByLabel(/^Take photo/).first()).toBeVisible();
  await expectNoOverflow(page);
  await expectTallButtons(page);
  await expectNoAxeViolations(page, "on the visit page at 360 px");

  // A photo "taken" goes the same way as a chosen file.
  await waitForHydration(page);
  await page.locator("#after-camera").setInputFiles(PHOTO);
  await page.getByRole("button", { name: "Upload After" }).click();
  await expectToast(page, true, "Success", "after image uploaded successfully");
});
