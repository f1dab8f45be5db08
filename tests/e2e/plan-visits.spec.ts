import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, signInAsAdmin, useClientAddress } from "./helpers";
import { PLAN_CUSTOMER, planVisitDay } from "./test-plans";

// Issue 25 (item 5): the admin's lists and the visit page say which visits come from a plan, and
// the Customers list shows each customer's plan, with a "No plan" filter. Reads the customer on
// a plan that tests/e2e/seed-test-admins.ts wrote before the server started; changes nothing.
test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

for (const js of [true, false]) {
  test.describe(js ? "plan visits with JavaScript" : "plan visits without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("a visit made from a plan shows 'From plan' in the Visits list and on its page; Customers shows the plan", async ({
      page,
    }) => {
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      const { day, weekdayName } = planVisitDay();
      await signInAsAdmin(page);

      // --- Visits: the plan's visit carries the Plan marker -------------------------------
      await page.goto(`/admin-dashboard/visits?${new URLSearchParams({ from: day, to: day, q: "Planwell" })}`);
      const table = page.getByRole("region", { name: "Visits table" });
      const row = table.locator("tbody tr").filter({ hasText: PLAN_CUSTOMER.fullName });
      await expect(row).toHaveCount(1);
      // The chip reads "Plan"; a screen reader hears the visit's type "made from a Plan".
      await expect(row.getByText("made from a Plan")).toBeVisible();
      await expect(row.getByRole("cell").nth(3)).toHaveText("Weekly Service made from a Plan");
      if (js) await expectNoAxeViolations(page, "on Visits with a plan visit");

      // --- The visit page names the plan and links to it ----------------------------------
      await row.getByRole("link").first().click();
      await expect(page.getByRole("heading", { level: 2, name: /Weekly Service/ })).toBeVisible();
      await expect(page.getByText(`From plan: ${PLAN_CUSTOMER.planName}`)).toBeVisible();
      await expect(page.getByText("Rescheduling, skipping or cancelling it here takes it off the plan.")).toBeVisible();
      const planLink = page.getByRole("link", { name: PLAN_CUSTOMER.planName });
      await expect(planLink).toHaveAttribute("href", /^\/admin-dashboard\/customers\/[0-9a-f-]{36}#plan$/);
      await expect(page.getByText("no longer follows the plan")).toHaveCount(0);
      if (js) await expectNoAxeViolations(page, "on a plan visit's page");

      // --- Customers: the plan and its day; "No plan" leaves this customer out ------------
      await page.goto("/admin-dashboard/customers");
      await page.getByLabel("Search by name or e-mail").fill("Planwell");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]q=Planwell/);
      const item = page.getByRole("listitem").filter({ hasText: PLAN_CUSTOMER.email });
      await expect(item.getByText(`${PLAN_CUSTOMER.planName} · ${weekdayName}`, { exact: true })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on Customers with plans");
      await page.getByLabel("No plan").check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]plan=none/);
      await expect(page.getByLabel("No plan")).toBeChecked();
      await expect(page.getByText(`No customers without a plan match "Planwell".`)).toBeVisible();
      await expect(page.getByRole("link", { name: PLAN_CUSTOMER.fullName })).toHaveCount(0);
      expect(pageErrors).toEqual([]);
    });
  });
}
