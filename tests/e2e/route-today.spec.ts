import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations, signInAsAdmin, useClientAddress } from "./helpers";

// Issue 26: Today in route order on a phone (decision 093). The development seed has several
// visits today; the admin moves the first stop down, the order holds across a reload, and
// "Optimise again" puts the computed order back (so other specs see the usual page).
test.use({ viewport: { width: 390, height: 844 } });

test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

const stopIds = (page: Page) =>
  page
    .locator('li[id^="stop-"]')
    .evaluateAll((items) => items.filter((item) => item.querySelector(".stop-no")).map((item) => item.id));

test("the admin opens Today, moves a stop, and sees the order kept after a reload", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin-dashboard/visits/today");
  await expect(page.getByRole("heading", { name: "Today", level: 2 })).toBeVisible();
  await expect(page.getByText(/\d+ stops · [\d.]+ mi · /)).toBeVisible();
  await expect(page.getByText("Estimated arrival").first()).toBeVisible();
  await expectNoAxeViolations(page, "on Today in route order");
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const before = await stopIds(page);
  expect(before.length).toBeGreaterThanOrEqual(2);
  const [first, second] = before;
  await page
    .locator(`#${first}`)
    .getByRole("button", { name: /Move down/ })
    .click();
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/today/);
  await expect(page.getByText("Order set by hand.")).toBeVisible();

  await page.reload();
  const after = await stopIds(page);
  expect(after.indexOf(second)).toBeLessThan(after.indexOf(first));
  expect(after.indexOf(second)).toBe(0);
  await expect(page.locator(`#${second} .stop-no`)).toHaveText(/1$/);
  await expect(page.getByText("Order set by hand.")).toBeVisible();
  await expectNoAxeViolations(page, "on Today with a hand-made order");

  await page.getByRole("button", { name: "Optimise again" }).click();
  await expect(page.getByText("Order set by hand.")).toHaveCount(0);
  expect((await stopIds(page)).slice(0, 2)).toEqual([first, second]);
});
