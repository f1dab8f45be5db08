import { expect, test, type Page } from "@playwright/test";
import { plannedVisits, scheduleRules, type PlanCalendar } from "../../app/features/plans/plan-schedule";
import { addDays, businessToday } from "../../app/features/visits/visit-dates";
import { formatBusinessDate, formatBusinessDateTime } from "../../app/utils/business-time";
import { bundledDocuments } from "../helpers/bundled-dataset";
import {
  expectNoAxeViolations,
  expectToast,
  signInAsAdmin,
  useClientAddress,
  waitForHydration,
  waitForToastsToClear,
} from "./helpers";

/**
 * Issue 25 item 5: the admin starts a Tuesday plan for a seeded customer on the customer's page,
 * sees the upcoming Tuesdays, changes it to Wednesday from a date, pauses, resumes and cancels;
 * with JavaScript and without. The server's clock is real: the expected visits come from the
 * same calendar functions, with the bundled dataset's rules (Site settings > Plans & schedule).
 */

// Each run its own seeded customer (the two runs share one server and database).
const CUSTOMERS = {
  js: { name: "Riley Ridge", email: "riley@example.com", dogs: "3" },
  noJs: { name: "Jordan Juniper", email: "jordan@example.com", dogs: "2" },
};
const SHOWN = 5;

type Rules = { firstVisitTime: string; horizonDays: number; closedDays: { date: string }[] | null };
const settings = bundledDocuments().find((doc) => doc._type === "siteSettings" && !doc._id.startsWith("drafts."));
const rules = (settings as unknown as { planRules: Rules }).planRules;
const calendar = scheduleRules({ firstVisitTime: rules.firstVisitTime, closedDays: rules.closedDays ?? [] });

function nextWeekday(day: string) {
  let next = addDays(day, 1);
  while ([0, 6].includes(new Date(`${next}T12:00:00Z`).getUTCDay())) next = addDays(next, 1);
  return next;
}

/** The plan's visits from now to the horizon, as the server makes them (admin: from now on). */
function expected(plan: Partial<PlanCalendar> & Pick<PlanCalendar, "weekdays" | "start_date">, from?: string) {
  const now = new Date();
  const today = businessToday(now);
  return plannedVisits(
    { status: "active", paused_from: null, paused_until: null, last_visit_date: null, ...plan },
    calendar,
    from ?? today,
    addDays(today, rules.horizonDays),
  ).filter((visit) => visit.startsAt >= now);
}

const label = (startsAt: Date) =>
  `${new Intl.DateTimeFormat("en-US", { timeZone: "America/Los_Angeles", weekday: "long" }).format(startsAt)}, ${formatBusinessDateTime(startsAt)}`;

const upcoming = (page: Page) => page.getByRole("list", { name: "Upcoming plan visits" }).getByRole("listitem");

async function expectUpcoming(page: Page, rows: { label: string; status: string }[]) {
  await expect(upcoming(page)).toHaveCount(rows.length);
  for (const [index, row] of rows.entries()) {
    await expect(upcoming(page).nth(index)).toContainText(row.label);
    await expect(upcoming(page).nth(index)).toContainText(row.status);
  }
}

const planSection = (page: Page) => page.locator("section#plan");
const summaryRow = (page: Page, term: string) =>
  planSection(page)
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) });

test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

for (const js of [true, false]) {
  test.describe(js ? "admin plan section with JavaScript" : "admin plan section without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 1000 } });

    test("start a Tuesday plan, change it to Wednesday from a date, pause, resume and cancel", async ({ page }) => {
      test.setTimeout(180_000);
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      const customer = js ? CUSTOMERS.js : CUSTOMERS.noJs;
      const admin = await signInAsAdmin(page);

      await page.goto(`/admin-dashboard/customers?${new URLSearchParams({ q: customer.email })}`);
      await page.getByRole("link", { name: customer.name, exact: true }).click();
      await expect(page.getByRole("heading", { name: customer.name, level: 2 })).toBeVisible();
      const customerUrl = page.url().replace(/[?#].*$/, "");
      if (js) await waitForHydration(page);

      // A plan left open by an earlier attempt of this test: cancel it, so it starts from a clean slate.
      if (await planSection(page).getByRole("button", { name: "Cancel plan" }).isVisible()) {
        await page.goto(`${customerUrl}?confirm=cancel-plan#plan`);
        await planSection(page).getByRole("button", { name: "Yes, cancel the plan" }).first().click();
        await expectToast(page, js, "Success", "Plan cancelled");
        await waitForToastsToClear(page, js);
      }

      // --- Start plan ----------------------------------------------------------------------
      const today = businessToday();
      const startDate = nextWeekday(today);
      const start = planSection(page).locator("form#start-plan");
      await expect(planSection(page).getByRole("heading", { name: "Start plan" })).toBeVisible();
      await expect(start.getByLabel("Dogs")).toHaveValue(customer.dogs);
      await expect(start.getByLabel("Start date")).toHaveValue(startDate);
      // One-time visits are not offered.
      await expect(start.getByLabel("Catalogue plan").locator("option", { hasText: "Swift Dash" })).toHaveCount(0);
      await start.getByLabel("Catalogue plan").selectOption({ label: "Weekly Swift Service (1 visit a week)" });
      await start.getByLabel("Tuesday").check();
      await start.getByLabel("Thursday").check();
      await start.getByLabel("Yard size").selectOption({ label: "Medium (2,000–5,000 sq ft)" });
      await start.getByLabel("Notes (optional)").fill("Back gate sticks");
      await start.getByRole("button", { name: "Start plan" }).click();
      // Refused on the service days (in the browser with JavaScript, by the server without), nothing lost.
      await expect(start.getByText("Weekly Swift Service has 1 visit a week: pick 1 service day.")).toBeVisible();
      await expect(start.getByLabel("Notes (optional)")).toHaveValue("Back gate sticks");
      await start.getByLabel("Thursday").uncheck();
      await start.getByRole("button", { name: "Start plan" }).click();
      await expectToast(page, js, "Success", "Plan started");
      await expect(page).toHaveURL(/#plan$/);

      await expect(summaryRow(page, "Plan")).toContainText("Weekly Swift Service");
      await expect(summaryRow(page, "Service days")).toContainText("Tuesday");
      await expect(summaryRow(page, "Dogs")).toContainText(customer.dogs);
      // $89 + the multi-dog add-on's tier, from the bundled dataset.
      await expect(summaryRow(page, "Monthly price")).toContainText(
        customer.dogs === "3" ? "$114/month" : "$104/month",
      );
      await expect(summaryRow(page, "Status")).toHaveText(/Active/);
      const tuesdays = expected({ weekdays: [2], start_date: startDate });
      expect(tuesdays.length).toBeGreaterThanOrEqual(3);
      await expectUpcoming(
        page,
        tuesdays.slice(0, SHOWN).map((v) => ({ label: label(v.startsAt), status: "Scheduled" })),
      );
      if (js) await expectNoAxeViolations(page, "on the customer's page with a plan");
      await waitForToastsToClear(page, js);

      // --- Change plan: Wednesday from the day after the first Tuesday ------------------------
      const from = addDays(tuesdays[0].day, 1);
      // The form is a link away (rendered when asked for, with or without JavaScript).
      await planSection(page).getByRole("link", { name: "Change plan" }).click();
      const change = planSection(page).locator("form#change-plan");
      await change.getByLabel("Tuesday").uncheck();
      await change.getByLabel("Wednesday").check();
      await change.getByLabel("From").fill(from);
      await change.getByRole("button", { name: "Change plan" }).click();
      await expectToast(page, js, "Success", "Plan changed");
      await expect(summaryRow(page, "Service days")).toContainText("Wednesday");
      const afterChange = [
        ...tuesdays.filter((v) => v.day < from),
        ...expected({ weekdays: [3], start_date: startDate }, from),
      ];
      await expectUpcoming(
        page,
        afterChange.slice(0, SHOWN).map((v) => ({ label: label(v.startsAt), status: "Scheduled" })),
      );
      await waitForToastsToClear(page, js);

      // --- Pause two weeks from the second visit, then resume ---------------------------------
      const pauseFrom = afterChange[1].day;
      const pauseUntil = addDays(pauseFrom, 13);
      await planSection(page).getByRole("link", { name: "Pause", exact: true }).click();
      const pause = planSection(page).locator("form#pause-plan");
      await pause.getByLabel("From").fill(pauseFrom);
      await pause.getByLabel("Until").fill(pauseUntil);
      await pause.getByRole("button", { name: "Pause", exact: true }).click();
      await expectToast(page, js, "Success", "Service paused");
      const dayText = (day: string) => formatBusinessDate(new Date(`${day}T20:00:00Z`));
      await expect(summaryRow(page, "Status")).toHaveText(
        new RegExp(`Paused from ${dayText(pauseFrom)} until ${dayText(pauseUntil)}`),
      );
      await expectUpcoming(
        page,
        afterChange.slice(0, SHOWN).map((v) => ({
          label: label(v.startsAt),
          status: v.day >= pauseFrom && v.day <= pauseUntil ? "Skipped: paused" : "Scheduled",
        })),
      );
      await waitForToastsToClear(page, js);
      await planSection(page).getByRole("button", { name: "Resume" }).click();
      await expectToast(page, js, "Success", "Service resumed");
      await expect(summaryRow(page, "Status")).toHaveText(/Active/);
      await expectUpcoming(
        page,
        afterChange.slice(0, SHOWN).map((v) => ({ label: label(v.startsAt), status: "Scheduled" })),
      );
      await waitForToastsToClear(page, js);

      // --- Cancel: a dialog with JavaScript, a page that asks first without -----------------
      await planSection(page).getByRole("button", { name: "Cancel plan" }).click();
      if (js) {
        const dialog = page.getByRole("dialog", { name: "Cancel this plan?" });
        await expect(dialog).toBeVisible();
        await expectNoAxeViolations(page, "with the Cancel plan dialog open");
        await dialog.getByRole("button", { name: "Keep the plan" }).click();
        await expect(dialog).toBeHidden();
        await planSection(page).getByRole("button", { name: "Cancel plan" }).click();
        await dialog.getByRole("button", { name: "Yes, cancel the plan" }).click();
      } else {
        await expect(page).toHaveURL(/\?confirm=cancel-plan#plan$/);
        await expect(planSection(page).getByRole("heading", { name: "Cancel this plan?" })).toBeVisible();
        await planSection(page).getByRole("button", { name: "Yes, cancel the plan" }).click();
      }
      await expectToast(page, js, "Success", "Plan cancelled");
      await expect(summaryRow(page, "Status")).toHaveText(/Cancelled/);
      // The plan started after today: no visit was made before it was cancelled.
      await expect(summaryRow(page, "Last visit")).toContainText("None: cancelled before its first visit");
      await expect(planSection(page).getByRole("list", { name: "Upcoming plan visits" })).toHaveCount(0);
      // Start plan is offered again.
      await expect(planSection(page).getByRole("heading", { name: "Start plan" })).toBeVisible();

      // The history, newest first, by this admin.
      const history = planSection(page).getByRole("table", { name: "History" }).locator("tbody tr");
      const whats = ["Plan cancelled", "Service resumed", "Service paused", "Plan changed", "Plan started"];
      for (const [index, what] of whats.entries()) {
        await expect(history.nth(index)).toContainText(what);
        await expect(history.nth(index)).toContainText(admin.fullName);
      }
      if (js) await expectNoAxeViolations(page, "on the customer's page with a cancelled plan");
      expect(pageErrors).toEqual([]);
    });
  });
}
