import { expect, test, type Page } from "@playwright/test";
import type { PlanRules } from "../../app/content/types";
import { isoWeekday, plannedVisits, scheduleRules } from "../../app/features/plans/plan-schedule";
import { formatVisitDay } from "../../app/features/plans/your-plan-format";
import { addDays, businessToday } from "../../app/features/visits/visit-dates";
import { bundledDocuments } from "../helpers/bundled-dataset";
import {
  expectNoAxeViolations,
  expectToast,
  mailLinks,
  signInAsAdmin,
  useClientAddress,
  waitForHydration,
  waitForMail,
  waitForToastsToClear,
} from "./helpers";

/**
 * Issue 25 item 6, in the browser with JavaScript and without: a visitor asks for a quote, the
 * admin turns it into a customer with a Tuesday plan, and the customer opens the set-password
 * link from the caught e-mail, sets a password, sees four Tuesdays under Your Plan, skips one,
 * pauses two weeks, resumes and cancels. The server's clock is real: the plan starts on the first
 * Tuesday after today (1 to 7 days ahead, whatever today is), so the 28-day horizon holds exactly
 * four Tuesdays; the expected days come from the same calendar functions and the bundled rules,
 * whose closed days fall on no Tuesday in that window (checked below).
 */

const documents = bundledDocuments();
const settings = documents.find((doc) => doc._type === "siteSettings" && !doc._id.startsWith("drafts.")) as unknown as {
  planRules: PlanRules;
};
const submitLabel = (
  documents.find((doc) => doc._id === "contactPage") as unknown as { quoteForm: { submitLabel: string } }
).quoteForm.submitLabel;

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

function expectedPlan() {
  const today = businessToday();
  let start = addDays(today, 1);
  while (isoWeekday(start) !== 2) start = addDays(start, 1);
  const rules = settings.planRules;
  const visits = plannedVisits(
    {
      weekdays: [2],
      start_date: start,
      status: "active",
      paused_from: null,
      paused_until: null,
      last_visit_date: null,
    },
    scheduleRules({ firstVisitTime: rules.firstVisitTime, closedDays: rules.closedDays ?? [] }),
    today,
    addDays(today, rules.horizonDays),
  );
  return { today, start, visits };
}

function detail(page: Page, term: string) {
  return page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: term }) })
    .locator("dd");
}

test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title>" }),
  );
});

for (const js of [true, false]) {
  test.describe(js ? "Quote to customer with JavaScript" : "Quote to customer without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("the admin turns a quote into a Tuesday plan; the customer sets a password and runs the plan", async ({
      page,
      browser,
    }) => {
      test.setTimeout(240_000);
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      const plan = expectedPlan();
      // Four Tuesdays, none moved by a closed day.
      expect(plan.visits).toHaveLength(4);
      for (const visit of plan.visits) expect(isoWeekday(visit.day)).toBe(2);
      const days = plan.visits.map((visit) => formatVisitDay(visit.startsAt));

      // --- A visitor asks for a quote ---------------------------------------------------------------
      const name = `Tess Tuesday ${unique()}`;
      const email = `tess-${js ? "js" : "nojs"}-${unique()}@example.com`;
      await page.goto("/contact");
      if (js) await waitForHydration(page);
      const quoteForm = page.locator("#quote-form");
      await quoteForm.getByLabel("Full name").fill(name);
      await quoteForm.getByLabel("Phone").fill("(702) 555-0177");
      await quoteForm.getByLabel("E-mail").fill(email);
      await quoteForm.getByLabel("Address", { exact: true }).fill("88 Creosote Ct");
      await quoteForm.getByLabel("ZIP code").fill("89048");
      await quoteForm.getByLabel("Number of dogs").selectOption("2");
      await quoteForm.getByLabel("Yard size").selectOption("medium");
      await quoteForm.getByLabel("Preferred service").selectOption("weekly");
      await page.getByRole("button", { name: submitLabel }).click();
      await expect(page).toHaveURL(/\/contact\?sent=/);

      // --- The admin opens it and creates the customer and plan -----------------------------------
      await signInAsAdmin(page);
      await expect(page).toHaveURL(/\/admin-dashboard/);
      await page.goto("/admin-dashboard/quotes");
      await page.getByRole("link", { name: new RegExp(name) }).click();
      await expect(page.getByRole("heading", { name: `Quote request from ${name}` })).toBeVisible();
      const form = page.locator("form#create-customer");
      await expect(page.getByRole("heading", { name: "Create customer and plan" })).toBeVisible();
      // Pre-filled from the request.
      await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);
      await expect(form.getByLabel("E-mail")).toHaveValue(email);
      await expect(form.getByLabel("Street address")).toHaveValue("88 Creosote Ct");
      await expect(form.getByLabel("ZIP code")).toHaveValue("89048");
      await expect(form.getByLabel("Catalogue plan")).toHaveValue("servicePlan.weekly");
      await expect(form.getByLabel("Dogs")).toHaveValue("2");
      await expect(form.getByLabel("Yard size")).toHaveValue("medium");
      if (js) {
        await waitForHydration(page);
        await expectNoAxeViolations(page, "on the quote page with Create customer and plan");
      }
      await form.getByLabel("City (optional)").fill("Pahrump");
      await form.getByLabel("Tuesday").check();
      await form.getByLabel("Start date").fill(plan.start);
      await form.getByRole("button", { name: "Create customer and plan" }).click();
      await expectToast(
        page,
        js,
        "Success",
        `Customer created. A "Set your password" e-mail is on its way to ${email}.`,
      );
      const customer = page.getByRole("region", { name: "Customer" });
      await expect(customer).toContainText(`this request became ${name}'s account and plan`);
      await expect(page.locator("form#create-customer")).toHaveCount(0);
      await expect(page.locator("article .quote-badge", { hasText: "Won" })).toBeVisible();
      // Its status is fixed now (decision 099): no select, the status and the way to the customer.
      await expect(page.getByRole("combobox", { name: "Status" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Update status" })).toHaveCount(0);
      const status = page.getByRole("region", { name: "Status" });
      await expect(status).toContainText("Won. This quote request has become a customer");
      await expect(status.getByRole("link", { name: `Open ${name}'s page` })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the quote page once converted");
      await customer.getByRole("link", { name: `Open ${name}'s page` }).click();
      await expect(page.getByRole("heading", { name })).toBeVisible();

      // --- The customer opens the link from the e-mail --------------------------------------------
      const mail = await waitForMail(email, "Set your password");
      const link = mailLinks(mail, "/auth/set-password").text[0];
      expect(link).toBeTruthy();
      const customerContext = await browser.newContext({
        javaScriptEnabled: js,
        viewport: { width: 1280, height: 900 },
      });
      const me = await customerContext.newPage();
      me.on("pageerror", (error) => pageErrors.push(error.message));
      await useClientAddress(me);
      await me.goto(link);
      await expect(me.getByRole("heading", { name: "Set your password" })).toBeVisible();
      if (js) {
        await waitForHydration(me);
        await expectNoAxeViolations(me, "on Set your password");
      }
      await me.getByLabel("Password").fill("tuesday-password-1");
      await me.getByRole("button", { name: "Set password and sign in" }).click();
      await expect(me).toHaveURL(/\/customer-dashboard$/);
      await expectToast(me, js, "Welcome!", "Your password is set and you're signed in.");

      // --- Your Plan: four Tuesdays; skip one, pause two weeks, resume, cancel ---------------------
      await waitForToastsToClear(me, js);
      await me.getByRole("region", { name: "Your Plan" }).getByRole("link", { name: "Manage your plan" }).click();
      await expect(me).toHaveURL(/\/customer-dashboard\/plan$/);
      await expect(me.getByRole("heading", { name: "Your Plan", level: 1 })).toBeVisible();
      await expect(detail(me, "Service days")).toHaveText("Tuesday");
      await expect(detail(me, "Dogs")).toHaveText("2");
      const rows = me.getByRole("region", { name: "Upcoming visits" }).getByRole("listitem");
      await expect(rows).toHaveCount(4);
      for (const [i, day] of days.entries()) await expect(rows.nth(i)).toContainText(day);

      // The second Tuesday is always beyond the change notice (the first may be tomorrow).
      await rows.nth(1).getByRole("button", { name: "Skip this visit" }).click();
      await expectToast(me, js, "Visit skipped");
      await expect(rows.nth(1).getByText("Skipped", { exact: true })).toBeVisible();
      await waitForToastsToClear(me, js);

      const from = plan.visits[2].day;
      const until = addDays(from, 13);
      await me.getByLabel("From", { exact: true }).fill(from);
      await me.getByLabel("Until", { exact: true }).fill(until);
      await me.getByRole("button", { name: "Pause service" }).click();
      await expectToast(me, js, "Service paused");
      for (const i of [2, 3]) await expect(rows.nth(i).getByText("Paused by customer")).toBeVisible();
      await waitForToastsToClear(me, js);
      await me.getByRole("button", { name: "Resume now" }).click();
      await expectToast(me, js, "Service resumed");
      await expect(detail(me, "Status")).toHaveText("Active");
      for (const i of [2, 3]) await expect(rows.nth(i).getByText("Scheduled", { exact: true })).toBeVisible();
      await expect(rows.nth(1).getByText("Skipped", { exact: true })).toBeVisible();
      await waitForToastsToClear(me, js);

      if (js) {
        await me.getByRole("button", { name: "Cancel plan" }).click();
        await me
          .getByRole("dialog", { name: "Cancel your plan?" })
          .getByRole("button", { name: "Yes, cancel my plan" })
          .click();
      } else {
        await me.getByRole("link", { name: "Cancel plan" }).click();
        await expect(me.getByRole("heading", { name: "Cancel your plan?" })).toBeVisible();
        await me.getByRole("button", { name: "Yes, cancel my plan" }).click();
      }
      await expectToast(me, js, "Plan cancelled");
      await expect(detail(me, "Status")).toHaveText("Cancelled");
      await expect(me.locator('[data-type="error"]')).toHaveCount(0);

      // The link works once.
      await me.goto(link);
      await expect(me.getByText("This link has expired. Request a new one.")).toBeVisible();
      await customerContext.close();
      expect(pageErrors).toEqual([]);
    });
  });
}
