import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { billingCustomer } from "./billing-customers";
import {
  expectNoAxeViolations,
  expectNoErrorToast,
  expectToast,
  signIn,
  signInAsAdmin,
  useClientAddress,
} from "./helpers";

/**
 * Issue 27 step 2: the customer sees an invoice and downloads its PDF; the admin records a cash
 * payment and the customer's balance clears. JavaScript on and off; axe on every page with it on (it
 * runs in the page, which JavaScript off forbids; the markup is the same). The
 * customers and their open $89.00 invoices were seeded with the test server
 * (tests/e2e/seed-billing-customers.ts). Last, the billing pages on a 360 px phone.
 */
test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title>" }),
  );
});

/** No error toast, neither sonner's (JavaScript) nor the server's live region (without it). */
for (const js of [true, false]) {
  test.describe(js ? "Billing with JavaScript" : "Billing without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("the customer sees an invoice and downloads its PDF", async ({ page }, testInfo) => {
      const customer = billingCustomer(js ? "customer-js" : "customer-nojs", testInfo.retry);
      await signIn(page, customer.email, customer.password);
      await page.goto("/customer-dashboard");
      await page.getByRole("link", { name: "See your billing" }).click();
      await expect(page).toHaveURL(/\/customer-dashboard\/billing$/);
      await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
      await expect(page.getByTestId("open-balance")).toHaveText("$89.00");
      // Its card payment failed (seeded): the notice gives the reason and the way to a new card.
      await expect(page.getByRole("heading", { name: "Your payment didn't go through", level: 2 })).toBeVisible();
      await expect(page.getByText("The reason given: Your card was declined.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Update card" })).toHaveAttribute(
        "href",
        "/customer-dashboard/billing#card-heading",
      );
      if (js) await expectNoAxeViolations(page, "customer billing");

      await page.getByRole("link", { name: customer.invoiceNumber, exact: true }).click();
      await expect(page.getByRole("heading", { name: `Invoice ${customer.invoiceNumber}`, level: 2 })).toBeVisible();
      await expect(page.getByRole("cell", { name: "Yard Refresh Pro on Nov 2, 2026" })).toBeVisible();
      await expect(page.getByTestId("invoice-balance")).toHaveText("$89.00");
      if (js) await expectNoAxeViolations(page, "printable invoice");
      await expectNoErrorToast(page);

      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download PDF" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`invoice-${customer.invoiceNumber}.pdf`);
      const bytes = readFileSync(await download.path());
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    });

    test("the admin records a cash payment and the customer's balance clears", async ({ page }, testInfo) => {
      const customer = billingCustomer(js ? "admin-js" : "admin-nojs", testInfo.retry);
      await signInAsAdmin(page);
      await page.goto("/admin-dashboard");
      await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Billing" }).click();
      await expect(page.getByRole("heading", { name: "Billing", level: 2 })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Failed payments", level: 3 })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "billing tab");

      await page.goto("/admin-dashboard/billing?status=open");
      // The current status shows to the eye, not only to a screen reader (issue 35 item 6).
      const statusNav = page.getByRole("navigation", { name: "Invoice status" });
      const currentLink = statusNav.getByRole("link", { name: "Open" });
      await expect(currentLink).toHaveAttribute("aria-current", "page");
      const background = (name: string) =>
        statusNav.getByRole("link", { name }).evaluate((a) => getComputedStyle(a).backgroundColor);
      expect(await background("Open")).not.toBe(await background("Paid"));
      expect(await background("Paid")).toBe("rgba(0, 0, 0, 0)");
      if (js) await expectNoAxeViolations(page, "billing tab, open invoices");
      const link = page.getByRole("link", { name: customer.invoiceNumber, exact: true });
      // Open invoices are listed overdue first: the seeded ones (due Nov 1, 2026) are on the first page.
      await link.click();
      await expect(page.getByRole("heading", { name: `Invoice ${customer.invoiceNumber}` })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "admin invoice");
      await page.getByLabel("Method").selectOption("cash");
      await page.getByLabel("Amount").fill("89.00");
      await page.getByLabel("Note").fill("Paid at the gate");
      await page.getByRole("button", { name: "Record payment" }).click();
      await expectToast(page, js, "Success", "Payment recorded");
      await expectNoErrorToast(page);
      await expect(page.getByTestId("invoice-balance")).toHaveText("$0.00");
      await expect(page.getByText("$89.00 by Cash")).toBeVisible();
      await expect(page.getByRole("button", { name: "Record payment" })).toHaveCount(0);

      // A goodwill refund gives money back: the invoice stays paid and shows it, a credit note
      // balances it, and nothing is owed or charged again (issue 34, decision 113).
      await page.getByLabel("Refund amount").fill("20.00");
      await page.getByLabel("Reason for the refund").fill("Goodwill");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await expectToast(page, js, "Success", "Refund recorded");
      await expectNoErrorToast(page);
      await expect(page.getByTestId("invoice-refunded")).toHaveText("$20.00");
      await expect(page.getByTestId("invoice-balance")).toHaveText("$0.00");
      await expect(page.getByText("Status: Paid")).toBeVisible();
      await expect(
        page.getByText(/^Credit note CN-\d{4}-\d{7} of .+: Refund: Goodwill, \$20\.00 \(Refunded\)$/),
      ).toBeVisible();
      await expect(page.getByText("$89.00 by Cash on")).toContainText("(refunded $20.00)");
      if (js) await expectNoAxeViolations(page, "admin invoice after a refund");

      await page.getByRole("link", { name: customer.fullName }).click();
      await expect(page.getByTestId("customer-balance")).toHaveText("Balance: $0.00");
      if (js) await expectNoAxeViolations(page, "customer page with balance");

      // The invoice has left the open list for the paid one, its balance $0.00.
      await page.goto("/admin-dashboard/billing?status=open");
      await expect(page.getByRole("heading", { name: "Billing", level: 2 })).toBeVisible();
      await expect(page.getByRole("link", { name: customer.invoiceNumber, exact: true })).toHaveCount(0);
      await page.getByRole("navigation", { name: "Invoice status" }).getByRole("link", { name: "Paid" }).click();
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: customer.invoiceNumber }) });
      await expect(row.getByRole("cell").last()).toHaveText("$0.00");
      // The month's roll-forward from the ledger is on the tab, and the export is a download.
      await expect(page.getByRole("heading", { name: /^The ledger in / })).toBeVisible();
      await expect(page.getByTestId("ledger-closing")).toHaveText(/^−?\$[\d,]+\.\d{2}$/);
      const exporting = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export the ledger (CSV)" }).click();
      const exported = await exporting;
      expect(exported.suggestedFilename()).toMatch(/^ledger-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(readFileSync(await exported.path(), "utf8").split("\r\n")[0]).toBe(
        "Date,Customer,Type,Document,Amount,Method,Stripe id",
      );
      await expectNoErrorToast(page);
    });
  });
}

/** Nothing wider than the phone: no sideways scrolling of the page (a table's region may scroll). */
async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test.describe("Billing on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the customer's and the admin's billing pages fit the phone", async ({ page }) => {
    const customer = billingCustomer("phone", test.info().retry);
    await signIn(page, customer.email, customer.password);
    await page.goto("/customer-dashboard/billing");
    await expect(page.getByTestId("open-balance")).toHaveText("$89.00");
    // The table scrolls in its own named region: the PDF link is there, the page stays 360 px.
    const invoices = page.getByRole("region", { name: "Your invoices" });
    await expect(
      invoices.getByRole("link", { name: `Download invoice ${customer.invoiceNumber} as PDF` }),
    ).toBeAttached();
    await expectNoOverflow(page);
    await expectNoAxeViolations(page, "customer billing at 360 px");

    await invoices.getByRole("link", { name: customer.invoiceNumber, exact: true }).click();
    await expect(page.getByRole("heading", { name: `Invoice ${customer.invoiceNumber}`, level: 2 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download PDF" })).toBeVisible();
    await expectNoOverflow(page);
    await expectNoAxeViolations(page, "printable invoice at 360 px");

    await page.context().clearCookies();
    await signInAsAdmin(page);
    await page.goto("/admin-dashboard/billing?status=open");
    await expect(page.getByRole("heading", { name: "Billing", level: 2 })).toBeVisible();
    const list = page.getByRole("region", { name: "Invoices" });
    await expect(list.getByRole("link", { name: customer.invoiceNumber, exact: true })).toBeAttached();
    await expectNoOverflow(page);
    await expectNoAxeViolations(page, "billing tab at 360 px");

    await page.goto(
      await list.getByRole("link", { name: customer.invoiceNumber, exact: true }).getAttribute("href").then(String),
    );
    await expect(page.getByRole("heading", { name: `Invoice ${customer.invoiceNumber}` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Record payment" })).toBeVisible();
    await expectNoOverflow(page);
    await expectNoAxeViolations(page, "admin invoice at 360 px");
  });
});
