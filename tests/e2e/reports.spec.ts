import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, expectNoErrorToast, signInAsAdmin, useClientAddress } from "./helpers";

/**
 * Issue 38 item 1 (docs/decisions/130): the owner opens Reports, changes the range and downloads a
 * CSV, with JavaScript on and off (the pages are documents with a GET form: the same either way);
 * axe on every page with it on.
 */
test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title>" }),
  );
});

for (const js of [true, false]) {
  test.describe(js ? "Reports with JavaScript" : "Reports without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("the owner opens Reports, changes the range and downloads a CSV", async ({ page }) => {
      await signInAsAdmin(page);
      await page.goto("/admin-dashboard");
      await page.getByRole("link", { name: "Reports", exact: true }).click();
      await expect(page).toHaveURL(/\/admin-dashboard\/reports$/);
      await expect(page.getByRole("heading", { name: "Reports: customers and visits", level: 2 })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Retention by sign-up month", level: 3 })).toBeVisible();
      await expect(page.getByRole("img", { name: /Active customers by month/ })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "reports: customers and visits");

      await page.getByRole("link", { name: "Recurring revenue and money" }).click();
      await expect(page.getByRole("heading", { name: "Reports: recurring revenue and money", level: 2 })).toBeVisible();
      await page.getByLabel("From month").fill("2026-01");
      await page.getByLabel("To month").fill("2026-03");
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(/\/admin-dashboard\/reports\/money\?from=2026-01&to=2026-03$/);
      const revenue = page.getByTestId("report-revenue");
      await expect(revenue.getByRole("rowheader")).toHaveText(["Jan 2026", "Feb 2026", "Mar 2026"]);
      // The definitions are one click away, without script.
      await revenue.getByText("What these figures mean").click();
      await expect(revenue.getByText(/52 ÷ 12 visits a month/)).toBeVisible();
      if (js) await expectNoAxeViolations(page, "reports: money");
      await expectNoErrorToast(page);

      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download Recurring revenue as CSV" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe("revenue-2026-01-to-2026-03.csv");
      const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
      expect(csv[0]).toBe(
        "Month,Recurring revenue,Paying customers,New,Expansion,Contraction,Churned,Reactivated,Net change",
      );
      expect(csv.slice(1, 4).map((line) => line.split(",")[0])).toEqual(["Jan 2026", "Feb 2026", "Mar 2026"]);
    });

    test("a bad range is explained and the default range shown", async ({ page }) => {
      await signInAsAdmin(page);
      await page.goto("/admin-dashboard/reports?from=2026-13");
      await expect(page.getByRole("alert").filter({ hasText: "Enter the months as YYYY-MM" })).toBeVisible();
      await expect(page.getByTestId("report-customers").getByRole("rowheader")).toHaveCount(12);
    });
  });
}
