import { expect, test, type Page } from "@playwright/test";
import { estimateMonthlyPrice, formatPrice } from "../../app/content/pricing";
import type { AddOn, PlanRules, Price } from "../../app/content/types";
import { isoWeekday, plannedVisits, scheduleRules, WEEKDAY_NAMES } from "../../app/features/plans/plan-schedule";
import { formatPlanDay, formatVisitDay } from "../../app/features/plans/your-plan-format";
import { addDays, businessToday } from "../../app/features/visits/visit-dates";
import { bundledDocuments } from "../helpers/bundled-dataset";
import { weekdayAhead } from "../helpers/plan-days";
import {
  expectNoAxeViolations,
  expectToast,
  signIn,
  useClientAddress,
  waitForHydration,
  waitForToastsToClear,
} from "./helpers";
import { PLAN_DAYS_AHEAD, PLAN_DOGS, planCustomer } from "./plan-customers";

/**
 * Issue 25: the customer sees their upcoming visits, skips one, undoes it, pauses two weeks,
 * resumes, and cancels, with JavaScript and without. The plan was started when the test server
 * was seeded (tests/e2e/seed-plan-customers.ts); the server's clock is real, so every date
 * expected here comes from the same calendar functions and the bundled dataset's rules.
 */

test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title>" }),
  );
});

const documents = bundledDocuments();
const settings = documents.find((doc) => doc._type === "siteSettings") as unknown as {
  planRules: PlanRules;
  phone: string;
};
const weeklyPlan = documents.find((doc) => doc._id === "servicePlan.weekly") as unknown as {
  name: string;
  price: Price;
};
const addOns = documents.filter((doc) => doc._type === "addOn") as unknown as AddOn[];

/** The plan the seed started (a weekly plan from the first weekday at least 3 days ahead) and its visits. */
function expectedPlan() {
  const today = businessToday();
  const start = weekdayAhead(today, PLAN_DAYS_AHEAD);
  const rules = settings.planRules;
  const visits = plannedVisits(
    {
      weekdays: [isoWeekday(start)],
      start_date: start,
      status: "active",
      paused_from: null,
      paused_until: null,
      last_visit_date: null,
    },
    scheduleRules(rules),
    today,
    addDays(today, rules.horizonDays),
  );
  return { today, start, visits, weekday: WEEKDAY_NAMES[isoWeekday(start) as 1] };
}

function detail(page: Page, term: string) {
  return page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: term }) })
    .locator("dd");
}

for (const js of [true, false]) {
  test.describe(js ? "Your Plan with JavaScript" : "Your Plan without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("the customer sees the upcoming visits, skips one, undoes it, pauses two weeks, resumes and cancels", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      const customer = planCustomer(js ? "js" : "nojs", test.info().retry);
      const plan = expectedPlan();
      expect(plan.visits.length).toBeGreaterThanOrEqual(3);
      const days = plan.visits.map((visit) => formatVisitDay(visit.startsAt));

      // --- The dashboard's card, then the page ------------------------------------------------
      await signIn(page, customer.email, customer.password);
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      const card = page.getByRole("region", { name: "Your Plan" });
      await expect(card.getByText("Weekly Swift Service")).toBeVisible();
      await expect(card.getByText(`Next visit: ${days[0]}`)).toBeVisible();
      await card.getByRole("link", { name: "Manage your plan" }).click();
      await expect(page).toHaveURL(/\/customer-dashboard\/plan$/);
      await expect(page.getByRole("heading", { name: "Your Plan", level: 1 })).toBeVisible();
      await expect(page.getByRole("heading", { name: weeklyPlan.name, level: 2 })).toBeVisible();
      await expect(detail(page, "Status")).toHaveText("Active");
      await expect(detail(page, "Service days")).toHaveText(plan.weekday);
      await expect(detail(page, "Dogs")).toHaveText(String(PLAN_DOGS));
      const monthly = estimateMonthlyPrice(weeklyPlan.price, PLAN_DOGS, addOns)!;
      await expect(detail(page, "Monthly price")).toContainText(formatPrice({ amount: monthly, unit: "month" }));

      const upcoming = page.getByRole("region", { name: "Upcoming visits" });
      const rows = upcoming.getByRole("listitem");
      // The seeding and this test may straddle midnight: the horizon's last visit may differ.
      await expect(rows.first()).toBeVisible();
      expect(Math.abs((await rows.count()) - Math.min(8, days.length))).toBeLessThanOrEqual(1);
      for (const [i, day] of days.slice(0, -1).entries()) await expect(rows.nth(i)).toContainText(day);
      if (js) {
        await waitForHydration(page);
        await expectNoAxeViolations(page, "on Your Plan");
      }

      // --- Skip the first visit, then undo ----------------------------------------------------
      const first = rows.nth(0);
      await first.getByRole("button", { name: "Skip this visit" }).click();
      await expectToast(page, js, "Visit skipped");
      await expect(first.getByText("Skipped", { exact: true })).toBeVisible();
      await expect(first.getByText("Skipped by you")).toBeVisible();
      await expect(page.getByText(/Visits can be changed up to/)).toHaveCount(0);
      await waitForToastsToClear(page, js);
      await first.getByRole("button", { name: "Undo skip" }).click();
      await expectToast(page, js, "Skip undone");
      await expect(first.getByText("Scheduled", { exact: true })).toBeVisible();
      await expect(first.getByRole("button", { name: "Skip this visit" })).toBeVisible();
      await waitForToastsToClear(page, js);

      // --- Pause two weeks from the first visit, then resume -----------------------------------
      const from = plan.visits[0].day;
      const until = addDays(from, 13);
      await expect(page.getByText(`Pause for up to ${settings.planRules.longestPauseDays} days`)).toBeVisible();
      await page.getByLabel("From", { exact: true }).fill(from);
      await page.getByLabel("Until", { exact: true }).fill(until);
      await page.getByRole("button", { name: "Pause service" }).click();
      await expectToast(page, js, "Service paused");
      await expect(detail(page, "Status")).toHaveText(
        `Paused from ${formatPlanDay(from)} until ${formatPlanDay(until)}`,
      );
      for (const i of [0, 1]) {
        await expect(rows.nth(i).getByText("Skipped", { exact: true })).toBeVisible();
        await expect(rows.nth(i).getByText("Paused by customer")).toBeVisible();
      }
      await expect(rows.nth(2).getByText("Scheduled", { exact: true })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on Your Plan, paused");
      await waitForToastsToClear(page, js);
      await page.getByRole("button", { name: "Resume now" }).click();
      await expectToast(page, js, "Service resumed");
      await expect(detail(page, "Status")).toHaveText("Active");
      for (const i of [0, 1, 2]) await expect(rows.nth(i).getByText("Scheduled", { exact: true })).toBeVisible();
      await waitForToastsToClear(page, js);

      // --- Cancel, confirmed ---------------------------------------------------------------------
      if (js) {
        await page.getByRole("button", { name: "Cancel plan" }).click();
        const dialog = page.getByRole("dialog", { name: "Cancel your plan?" });
        await expect(dialog).toBeVisible();
        await expectNoAxeViolations(page, "with the cancel dialog open");
        // "No" closes it and changes nothing.
        await dialog.getByRole("button", { name: "No, keep my plan" }).click();
        await expect(dialog).toBeHidden();
        await expect(detail(page, "Status")).toHaveText("Active");
        await page.getByRole("button", { name: "Cancel plan" }).click();
        await dialog.getByRole("button", { name: "Yes, cancel my plan" }).click();
      } else {
        await page.getByRole("link", { name: "Cancel plan" }).click();
        await expect(page).toHaveURL(/\?cancel=confirm/);
        await expect(page.getByRole("heading", { name: "Cancel your plan?" })).toBeVisible();
        await expect(detail(page, "Status")).toHaveText("Active");
        await page.getByRole("button", { name: "Yes, cancel my plan" }).click();
      }
      await expectToast(page, js, "Plan cancelled");
      await expect(page).toHaveURL(/\/customer-dashboard\/plan$/);
      await expect(detail(page, "Status")).toHaveText("Cancelled");
      // No visit was within the notice: the last visit day is the day of cancelling.
      await expect(detail(page, "Last visit")).toHaveText(formatPlanDay(businessToday()));
      await expect(upcoming.getByText("No upcoming visits.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Pause service" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Cancel plan" })).toHaveCount(0);
      // No refusal showed on the way (sonner's toasts and the server's carry their type).
      await expect(page.locator('[data-type="error"]')).toHaveCount(0);
      if (js) await expectNoAxeViolations(page, "on Your Plan, cancelled");

      await page.getByRole("link", { name: "Dashboard" }).first().click();
      await expect(page.getByRole("region", { name: "Your Plan" }).getByText("Cancelled")).toBeVisible();
      expect(pageErrors).toEqual([]);
    });
  });
}

test("a customer without a plan sees where to find one", async ({ page }) => {
  const email = `no-plan-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill("Nora Noplan");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("no-plan-password");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await signIn(page, email, "no-plan-password");
  await expect(page.getByRole("region", { name: "Your Plan" }).getByText("No plan yet")).toBeVisible();
  await page.goto("/customer-dashboard/plan");
  await expect(page.getByRole("heading", { name: "No plan yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See our plans" })).toHaveAttribute("href", "/services");
  await expect(page.locator("#main-content").getByRole("link", { name: settings.phone })).toBeVisible();
  await waitForHydration(page);
  await expectNoAxeViolations(page, "on Your Plan without a plan");
});
