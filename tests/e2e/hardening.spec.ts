import { expect, test } from "@playwright/test";
import { DEV_CUSTOMER, signIn, useClientAddress, waitForHydration } from "./helpers";

test("leaving the dashboard for another page does not say 'Loading your dashboard...'", async ({ page }) => {
  await useClientAddress(page);
  await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
  await expect(page).toHaveURL(/\/customer-dashboard$/);
  await waitForHydration(page);
  // Hold the next page's data so the navigation stays pending while we look.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested!: () => void;
  const pending = new Promise<void>((resolve) => (requested = resolve));
  await page.route(/\/about\?_data=/, async (route) => {
    requested();
    await held;
    await route.continue();
  });
  const status = page.getByRole("status").filter({ hasText: "Loading your dashboard..." });
  await page.getByRole("banner").getByRole("link", { name: "About", exact: true }).first().click();
  await pending;
  await expect(status).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/\/about$/);
});
