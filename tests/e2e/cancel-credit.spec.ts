import { expect, test, type Locator, type Page } from "@playwright/test";
import { isoWeekday, slotDays } from "../../app/features/plans/plan-schedule";
import { addDays, businessToday } from "../../app/features/visits/visit-dates";
import { weekdayAhead } from "../helpers/plan-days";
import { expectNoAxeViolations, expectNoErrorToast, expectToast, signIn, useClientAddress } from "./helpers";
import { CANCEL_CREDIT_DAYS_AHEAD, cancelCreditCustomer } from "./cancel-credit-customers";
import { shiftMonth } from "./paused-month-customers";

/**
 * Issue 34: a cancellation with notice showing and giving the credit (docs/decisions/115). The
 * customer's weekly plan began on the first of this month and this month was billed in full by
 * the test server's own run (tests/e2e/seed-cancel-credit-customers.ts). On "Cancel plan" the
 * confirmation says what comes back ("$X back as credit on file"); cancelling says it again, and
 * the Billing page shows this month's invoice paid by it in part: the open balance is the price
 * less it. JavaScript on and off; axe with it on; a phone's viewport.
 */
const monthName = (first: string) =>
  new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${first}T00:00:00Z`),
  );
/** "$89.00" → 8900. */
const cents = (text: string) => {
  const match = /(−?)\$([\d,]+)\.(\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in: ${text}`);
  return (match[1] ? -1 : 1) * (Number(match[2].replace(/,/g, "")) * 100 + Number(match[3]));
};
const amountOf = async (row: Locator) => cents(await row.getByRole("cell").last().innerText());

/**
 * The plan's service days this month, and those that start after the change notice: what the
 * cancellation ends (08:00 on a day from the day after tomorrow is over 24 hours away all today;
 * the plan's weekday is never today's or tomorrow's).
 */
function slotsOfMonth(today: string) {
  const weekday = isoWeekday(weekdayAhead(today, CANCEL_CREDIT_DAYS_AHEAD));
  const days = slotDays([weekday], shiftMonth(today, 0), addDays(shiftMonth(today, 1), -1));
  return { all: days.length, ended: days.filter((day) => day >= addDays(today, CANCEL_CREDIT_DAYS_AHEAD)).length };
}
const money = (amount: number) =>
  `$${Math.floor(amount / 100).toLocaleString("en-US")}.${String(amount % 100).padStart(2, "0")}`;

async function thisMonthsInvoice(page: Page, thisMonth: string) {
  const invoices = page.getByRole("region", { name: "Your invoices" });
  const row = invoices.getByRole("row").filter({ hasText: monthName(thisMonth) });
  // The server bills this month when it starts: wait for its invoice to be listed.
  await expect(async () => {
    await page.goto("/customer-dashboard/billing");
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  return row;
}

test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

for (const js of [true, false]) {
  test.describe(js ? "Cancelling with notice with JavaScript" : "Cancelling with notice without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });

    test("the cancel page shows what comes back, and cancelling gives it as credit on file", async ({
      page,
    }, testInfo) => {
      const today = businessToday();
      // Near a month's end no service day of this month is left after the notice: nothing to show.
      const slots = slotsOfMonth(today);
      test.skip(slots.ended === 0, "no visit of this month is left after the notice");
      const customer = cancelCreditCustomer(js ? "js" : "nojs", testInfo.retry);
      const thisMonth = shiftMonth(today, 0);
      await signIn(page, customer.email, customer.password);

      // This month's invoice: the plan's full month, owed.
      const row = await thisMonthsInvoice(page, thisMonth);
      await row.getByRole("link").first().click();
      const planLine = page.getByRole("row").filter({ hasText: `Weekly Swift Service, ${monthName(thisMonth)}` });
      await expect(planLine).toHaveCount(1);
      const price = await amountOf(planLine);
      expect(price).toBeGreaterThan(0);

      await page.goto("/customer-dashboard/plan");
      let shown: Locator;
      if (js) {
        await page.getByRole("button", { name: "Cancel plan" }).click();
        const dialog = page.getByRole("dialog", { name: "Cancel your plan?" });
        await expect(dialog).toBeVisible();
        shown = dialog.getByTestId("cancel-credit");
      } else {
        await page.getByRole("link", { name: "Cancel plan" }).click();
        await expect(page).toHaveURL(/\?cancel=confirm/);
        shown = page.getByTestId("cancel-credit");
      }
      await expect(shown).toContainText("back as credit on file");
      const credit = cents(await shown.innerText());
      // Each visit ended is this month's price over its visits, rounded once; all of them are
      // exactly the price, never more back than was billed.
      const rate = Math.floor((2 * price + slots.all) / (2 * slots.all));
      expect(credit).toBe(slots.ended === slots.all ? price : slots.ended * rate);
      await expect(shown).toContainText(/it first pays the \$[\d,]+\.\d{2} you owe/);
      if (js) await expectNoAxeViolations(page, "with the cancel dialog and its credit");

      await page.getByRole("button", { name: "Yes, cancel my plan" }).click();
      await expectToast(page, js, "Plan cancelled", `${money(credit)} back as credit on file.`);
      await expect(page.getByRole("heading", { name: "Cancel plan" })).toHaveCount(0);
      if (js) await expectNoAxeViolations(page, "on Your Plan, cancelled");

      // The credit paid this month's invoice (in part, or in full): what is owed is the price less it.
      await page.goto("/customer-dashboard/billing");
      await expect(page.getByTestId("open-balance")).toHaveText(money(price - credit));
      const notes = page.getByRole("region", { name: "Credit notes" });
      await expect(notes.getByText(/^Credit note CN-\d{4}-\d{7}: /)).toHaveText(
        new RegExp(`: ${money(credit).replace(/[$.]/g, "\\$&")} \\(Credit on file\\)$`),
      );
      // One line per visit given back, inside the note's own item.
      await expect(notes.locator("li li").filter({ hasText: "cancelled with the plan" })).toHaveCount(slots.ended);
      if (js) await expectNoAxeViolations(page, "billing after cancelling");
      await expectNoErrorToast(page);
    });
  });
}
