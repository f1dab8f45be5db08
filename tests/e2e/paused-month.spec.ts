import { expect, test, type Locator } from "@playwright/test";
import { businessToday } from "../../app/features/visits/visit-dates";
import { expectNoAxeViolations, expectNoErrorToast, signIn, useClientAddress } from "./helpers";
import { pausedMonthCustomer, shiftMonth } from "./paused-month-customers";

/**
 * Issue 34: a paused month's credit on the next invoice. The customer's weekly plan was paused
 * for the first two weeks of last month, with notice, and last month was billed in full
 * (tests/e2e/seed-paused-month-customers.ts); the test server's own billing run, at its start,
 * bills this month. The customer finds this month's invoice with one credit per paused visit, each
 * last month's bill divided by its visits, and a total that is the plan's price less them.
 * JavaScript on and off; axe with it on.
 */
const monthName = (first: string) =>
  new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${first}T00:00:00Z`),
  );
/** "$89.00" → 8900, "−$17.80" → -1780. */
const cents = (text: string) => {
  const match = /^(−?)\$([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`not an amount: ${text}`);
  return (match[1] ? -1 : 1) * (Number(match[2].replace(/,/g, "")) * 100 + Number(match[3]));
};
const amountOf = async (row: Locator) => cents(await row.getByRole("cell").last().innerText());

/** The Tuesdays of the first two weeks of that month (the pause's visits). */
function pausedTuesdays(first: string): number {
  let count = 0;
  for (let day = 1; day <= 14; day += 1) {
    if (new Date(`${first.slice(0, 8)}${String(day).padStart(2, "0")}T12:00:00Z`).getUTCDay() === 2) count += 1;
  }
  return count;
}
/** The Tuesdays of that month: the plan's visits in it. */
function tuesdaysOf(first: string): number {
  const date = new Date(`${first}T12:00:00Z`);
  let count = 0;
  for (const month = date.getUTCMonth(); date.getUTCMonth() === month; date.setUTCDate(date.getUTCDate() + 1)) {
    if (date.getUTCDay() === 2) count += 1;
  }
  return count;
}

test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

for (const js of [true, false]) {
  test.describe(js ? "A paused month with JavaScript" : "A paused month without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });

    test("last month's paused visits are credited on this month's invoice", async ({ page }, testInfo) => {
      const customer = pausedMonthCustomer(js ? "js" : "nojs", testInfo.retry);
      const thisMonth = shiftMonth(businessToday(), 0);
      const lastMonth = shiftMonth(thisMonth, -1);
      await signIn(page, customer.email, customer.password);

      // The server bills this month when it starts: wait for its invoice to be listed.
      const invoices = page.getByRole("region", { name: "Your invoices" });
      const row = invoices.getByRole("row").filter({ hasText: monthName(thisMonth) });
      await expect(async () => {
        await page.goto("/customer-dashboard/billing");
        await expect(row).toHaveCount(1, { timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      // Last month's invoice is there too, paid by nothing yet: the plan's full month.
      await expect(invoices.getByRole("row").filter({ hasText: monthName(lastMonth) })).toHaveCount(1);
      if (js) await expectNoAxeViolations(page, "billing with this month's invoice");

      await row.getByRole("link").first().click();
      await expect(page.getByRole("heading", { name: /^Invoice \d{4}-\d{6,7}$/, level: 2 })).toBeVisible();
      const planLine = page.getByRole("row").filter({ hasText: `Weekly Swift Service, ${monthName(thisMonth)}` });
      await expect(planLine).toHaveCount(1);
      const price = await amountOf(planLine);
      expect(price).toBeGreaterThan(0);

      const lastMonthName = monthName(lastMonth).split(" ")[0];
      const credits = page
        .getByRole("row")
        .filter({ hasText: new RegExp(`^Credit: visit of ${lastMonthName} \\d+ skipped with notice`) });
      const paused = pausedTuesdays(lastMonth);
      await expect(credits).toHaveCount(paused);
      // Each is last month's bill (the plan's price: it began on the 1st) over last month's visits.
      const each = Math.round(price / tuesdaysOf(lastMonth));
      let credited = 0;
      for (const credit of await credits.all()) {
        const amount = await amountOf(credit);
        expect(Math.abs(amount + each)).toBeLessThanOrEqual(1);
        credited += amount;
      }
      // Never more back than the month was billed, and the total is the price less the credits.
      expect(-credited).toBeLessThan(price);
      const total = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Total" }) });
      expect(await amountOf(total)).toBe(price + credited);
      if (js) await expectNoAxeViolations(page, "invoice with the pause's credits");
      await expectNoErrorToast(page);
    });
  });
}
