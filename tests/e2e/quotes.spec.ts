import { expect, test, type Page } from "@playwright/test";
import { bundledDocuments } from "../helpers/bundled-dataset";
import {
  expectNoAxeViolations,
  expectToast,
  signInAsAdmin as signInAsTestAdmin,
  useClientAddress,
  waitForHydration,
} from "./helpers";

/**
 * The quote journey: a visitor asks for a quote (with and without JavaScript), the admin finds
 * the request in the inbox and marks it contacted. Expected prices and hours are read from the
 * dataset the server reads.
 */

type Doc = Record<string, unknown> & { _id: string };
const documents: Doc[] = bundledDocuments();
const doc = <T>(id: string) => documents.find((d) => d._id === id) as unknown as T;
const settings = doc<{ hours: { display: string } }>("siteSettings");
const weekly = doc<{ price: { amount: number } }>("servicePlan.weekly");
const multiDog = doc<{ tiers: { minDogs: number; monthlyAmount: number }[] }>("addOn.multi-dog");
const submitLabel = doc<{ quoteForm: { submitLabel: string } }>("contactPage").quoteForm.submitLabel;
const twoDogPrice = weekly.price.amount + (multiDog.tiers.find((tier) => tier.minDogs === 2)?.monthlyAmount ?? 0);
const NEXT_STEPS = `We'll get back to you within our business hours: ${settings.hours.display}.`;

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function fillQuote(page: Page, values: { name: string; phone: string; email: string; zip?: string }) {
  const form = page.locator("#quote-form");
  await form.getByLabel("Full name").fill(values.name);
  await form.getByLabel("Phone").fill(values.phone);
  await form.getByLabel("E-mail").fill(values.email);
  await form.getByLabel("Address", { exact: true }).fill("742 Sagebrush Way");
  await form.getByLabel("ZIP code").fill(values.zip ?? "89048");
  await form.getByLabel("Number of dogs").selectOption("2");
  await form.getByLabel("Yard size").selectOption("medium");
  await form.getByLabel("Preferred service").selectOption("weekly");
  await form.getByLabel("Message (optional)").fill("Side gate, watch for the tortoise.");
}

/** axe in the default theme and in the dark theme the accessibility panel switches on. */
async function expectAccessibleInBothThemes(page: Page, context: string) {
  await expectNoAxeViolations(page, context);
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await expectNoAxeViolations(page, `${context} (dark)`);
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

async function signInAsAdmin(page: Page) {
  await signInAsTestAdmin(page);
  await expect(page).toHaveURL(/\/admin-dashboard/);
}

// Each test comes from its own client address, so the per-client limits of one test never meet another's.
test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a bad phone number is explained next to the field, values kept; the fixed request is sent", async ({
    page,
  }) => {
    const name = `No Script ${unique()}`;
    await page.goto("/contact");
    await fillQuote(page, { name, phone: "555-01", email: `noscript-${unique()}@example.com` });
    await page.getByRole("button", { name: submitLabel }).click();

    const phone = page.getByLabel("Phone");
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    const errorId = await phone.getAttribute("aria-describedby");
    expect(errorId).toBeTruthy();
    await expect(page.locator(`[id="${errorId}"]`)).toHaveText("Enter a 10-digit phone number, like 702-555-0123.");
    // The first invalid field has focus, and nothing typed was lost.
    await expect(phone).toBeFocused();
    await expect(page.getByLabel("Full name")).toHaveValue(name);
    await expect(page.getByLabel("Preferred service")).toHaveValue("weekly");
    await expect(page.getByLabel("Message (optional)")).toHaveValue("Side gate, watch for the tortoise.");
    // The estimate of the values kept is on the page even without JavaScript.
    await expect(page.getByText(/^Estimated price:/)).toHaveText(`Estimated price: $${twoDogPrice}/month`);

    await phone.fill("(702) 555-0142");
    await page.getByRole("button", { name: submitLabel }).click();
    await expect(page).toHaveURL(/\/contact\?sent=/);
    const sent = page.getByTestId("quote-sent");
    // The URL targets the heading: the browser moves focus to the news without any script.
    await expect(sent.getByRole("heading", { name: "Quote request sent" })).toBeFocused();
    await expect(sent.getByText(NEXT_STEPS)).toBeVisible();
    await expect(sent.getByText(`$${twoDogPrice}/month`)).toBeVisible();
    await expectToast(page, false, "Quote request sent", NEXT_STEPS);
  });
});

test.describe("with JavaScript", () => {
  test("fields are checked as the visitor goes, the estimate follows, and an outside ZIP is told honestly", async ({
    page,
  }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    const form = page.locator("#quote-form");

    await form.getByLabel("E-mail").fill("not-an-address");
    await form.getByLabel("E-mail").blur();
    await expect(form.getByText("Enter a valid e-mail address, like name@example.com.")).toBeVisible();
    await expect(form.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");

    await form.getByLabel("Preferred service").selectOption("weekly");
    await expect(page.locator("#quote-estimate")).toContainText(`Estimated price: $${weekly.price.amount}/month`);
    await expect(page.locator("#quote-estimate")).toHaveAttribute("aria-live", "polite");
    await form.getByLabel("Number of dogs").selectOption("2");
    await expect(page.locator("#quote-estimate")).toContainText(`Estimated price: $${twoDogPrice}/month`);

    // Submitting with an empty required field: the browser never posts, focus goes to the field.
    await form.getByLabel("Full name").fill("");
    await page.getByRole("button", { name: submitLabel }).click();
    await expect(form.getByLabel("Full name")).toBeFocused();
    await expect(form.getByText("Enter your name.")).toBeVisible();
    await expectAccessibleInBothThemes(page, "on /contact with errors shown");

    await fillQuote(page, {
      name: `With Script ${unique()}`,
      phone: "702.555.0199",
      email: `js-${unique()}@example.com`,
      zip: "90210",
    });
    await page.getByRole("button", { name: submitLabel }).click();
    await expect(page).toHaveURL(/\/contact\?sent=/);
    const sent = page.getByTestId("quote-sent");
    await expect(sent.getByRole("heading", { name: "Quote request sent" })).toBeFocused();
    await expect(sent.getByText("The ZIP code 90210 may be outside our service area.", { exact: false })).toBeVisible();
    await expectToast(page, true, "Quote request sent");
    await expectAccessibleInBothThemes(page, "on the quote success screen");
  });

  test("the admin finds the request in the inbox and marks it contacted", async ({ page }) => {
    const name = `Inbox Visitor ${unique()}`;
    await page.goto("/contact");
    await waitForHydration(page);
    await fillQuote(page, { name, phone: "702-555-0111", email: `inbox-${unique()}@example.com`, zip: "90210" });
    await page.getByRole("button", { name: submitLabel }).click();
    await expect(page).toHaveURL(/\/contact\?sent=/);

    await signInAsAdmin(page);
    await page.goto("/admin-dashboard/quotes");
    await waitForHydration(page);
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("Weekly Swift Service");
    await expect(row).toContainText("Outside service area");
    await expect(row).toContainText("New");
    // The e-mail to the business, read from the outbox: the run's mail catcher takes it within
    // moments (tests/e2e/global-setup.ts), so any of the three states may show.
    await expect(page.getByRole("columnheader", { name: "E-mail to you" })).toBeVisible();
    await expect(row.getByRole("cell").last()).toHaveText(/^(Waiting to be sent|Sending|Sent)$/);
    await expectAccessibleInBothThemes(page, "on the quote inbox");

    await row.getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { name: `Quote request from ${name}` })).toBeVisible();
    await expect(page.getByRole("link", { name: "Call (702) 555-0111" })).toHaveAttribute("href", "tel:+17025550111");
    await expect(page.getByRole("link", { name: /^E-mail inbox-/ })).toHaveAttribute("href", /^mailto:inbox-/);
    const notification = page
      .getByRole("term")
      .filter({ hasText: /^E-mail notification$/ })
      .locator("xpath=..");
    await expect(notification.getByRole("definition")).toHaveText(/^(Waiting to be sent|Sending|Sent)/);
    const confirmation = page
      .getByRole("term")
      .filter({ hasText: /^Confirmation to the visitor$/ })
      .locator("xpath=..");
    await expect(confirmation.getByRole("definition")).toHaveText(/^(Waiting to be sent|Sending|Sent)/);
    await expectAccessibleInBothThemes(page, "on a quote request");

    await page.getByLabel("Status").selectOption("contacted");
    await page.getByRole("button", { name: "Update status" }).click();
    await expectToast(page, true, "Status updated");
    await expect(page.getByRole("article").getByText("Contacted", { exact: true }).first()).toBeVisible();

    await page.goto("/admin-dashboard/quotes?status=contacted");
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Contacted");
    await page.goto("/admin-dashboard/quotes?status=new");
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  });
});

test.describe("the inbox without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("filters and status changes work as plain links and forms", async ({ page }) => {
    const name = `Plain Admin ${unique()}`;
    await page.goto("/contact");
    await fillQuote(page, { name, phone: "702-555-0122", email: `plain-${unique()}@example.com` });
    await page.getByRole("button", { name: submitLabel }).click();
    await expect(page).toHaveURL(/\/contact\?sent=/);

    await signInAsAdmin(page);
    await page.goto("/admin-dashboard/quotes");
    await page
      .getByRole("navigation", { name: "Filter quote requests by status" })
      .getByRole("link", { name: /^New/ })
      .click();
    await expect(page).toHaveURL(/status=new/);
    await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name }).click();
    await page.getByLabel("Status").selectOption("won");
    await page.getByRole("button", { name: "Update status" }).click();
    await expectToast(page, false, "Status updated");
    await expect(page.getByLabel("Status")).toHaveValue("won");
  });
});
