import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { creditNoteCustomer } from "./credit-note-customers";
import { expectNoAxeViolations, expectNoErrorToast, signIn, signInAsAdmin, useClientAddress } from "./helpers";

/**
 * Issue 34 item 3: a credit note is a document with its own page and PDF (docs/decisions/118). The
 * customer's $89.00 invoice was paid in cash and $20.00 of it refunded, which issued the refund's
 * credit note (tests/e2e/seed-credit-note-customers.ts). The customer finds it on their Billing
 * page, opens it, goes to its invoice and back through the invoice's credit line, and downloads
 * its PDF; another id is a 404. Then the admin opens the same credit note and the Billing tab's
 * "Disputes lost". On a 390 px phone, JavaScript on and off; axe with it on.
 */
test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

for (const js of [true, false]) {
  test.describe(js ? "A credit note with JavaScript" : "A credit note without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });

    test("the customer opens a refund's credit note, its invoice and its PDF", async ({ page }, testInfo) => {
      const customer = creditNoteCustomer(js ? "js" : "nojs", testInfo.retry);
      await signIn(page, customer.email, customer.password);
      await page.goto("/customer-dashboard/billing");
      const list = page.getByRole("region", { name: "Credit notes" });
      await expect(list.getByTestId("credit-notes")).toContainText(": $20.00 (Refunded)");
      if (js) await expectNoAxeViolations(page, "customer billing with a credit note");

      await list.getByRole("link", { name: /^Credit note CN-\d{4}-\d{7}$/ }).click();
      await expect(page).toHaveURL(/\/customer-dashboard\/billing\/credit-notes\/[0-9a-f-]{36}$/);
      const heading = page.getByRole("heading", { name: /^Credit note CN-\d{4}-\d{7}$/, level: 2 });
      await expect(heading).toBeVisible();
      const number = (await heading.innerText()).replace("Credit note ", "");
      await expect(page.getByText("Credited to: Credit Note Customer")).toBeVisible();
      await expect(page.getByRole("cell", { name: "Refund: A corner was missed" })).toBeVisible();
      await expect(page.getByTestId("credit-note-total")).toHaveText("$20.00");
      await expect(page.getByText("Paid back as a refund of your payment.")).toBeVisible();
      // Nothing wider than the phone's screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (js) await expectNoAxeViolations(page, "credit note");
      await expectNoErrorToast(page);
      const noteUrl = page.url();

      // Its invoice, and back through the invoice's credit line.
      await page.getByRole("link", { name: customer.invoiceNumber, exact: true }).click();
      await expect(page.getByRole("heading", { name: `Invoice ${customer.invoiceNumber}`, level: 2 })).toBeVisible();
      await expect(page.getByTestId("invoice-refunded")).toHaveText("$20.00");
      if (js) await expectNoAxeViolations(page, "invoice with a credit note");
      await page.getByRole("link", { name: `Credit note ${number}`, exact: true }).click();
      await expect(page).toHaveURL(noteUrl);

      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download PDF" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`credit-note-${number}.pdf`);
      expect(
        readFileSync(await download.path())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");

      // Another credit note's id (or none) is a 404, page and PDF alike.
      const missing = "/customer-dashboard/billing/credit-notes/00000000-0000-4000-8000-000000000000";
      expect((await page.request.get(missing)).status()).toBe(404);
      expect((await page.request.get(`${missing}/pdf`)).status()).toBe(404);

      // The admin's page of the same credit note, and the Billing tab's "Disputes lost" link.
      await page.context().clearCookies();
      await signInAsAdmin(page);
      await page.goto(noteUrl.replace("/customer-dashboard/billing/", "/admin-dashboard/billing/"));
      await expect(page.getByRole("heading", { name: `Credit note ${number}`, level: 2 })).toBeVisible();
      await expect(page.getByRole("link", { name: customer.fullName })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "admin credit note");
      await page.goto("/admin-dashboard/billing");
      await page
        .getByRole("navigation", { name: "Invoice status" })
        .getByRole("link", { name: /^Disputes lost \(\d+\)$/ })
        .click();
      await expect(page).toHaveURL(/status=disputes-lost$/);
      if (js) await expectNoAxeViolations(page, "billing tab, disputes lost");
      await expectNoErrorToast(page);
    });
  });
}
