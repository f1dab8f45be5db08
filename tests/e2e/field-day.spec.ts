import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  businessTodayAt,
  createVisitFor,
  expectNoAxeViolations,
  expectNoFailures,
  expectToast,
  isolateBrowser,
  newCustomer,
  signInAsAdmin,
  signUpCustomer,
  waitForHydration,
  waitForMail,
  waitForToastsToClear,
  watchForFailures,
} from "./helpers";

const PHOTO = path.resolve(import.meta.dirname, "../fixtures/yard-before.jpg");
const PHONE = { width: 390, height: 844 };

// Issue 26's "Done when" journey (decisions 093 and 097), on a 390 x 844 phone with axe: the
// admin opens Today, moves a stop (the order holds across a reload; "Optimise again" puts the
// computed one back), presses "On my way" (the e-mail is caught by the run's SMTP server), opens
// the visit, uploads a photo and marks it completed; the customer, in a browser of their own,
// sees "On the way" in between and not after. No error toast, no 5xx, no browser error at any
// step. This spec is the only one that changes Today's order: a second would meet it there.
test.use({ viewport: PHONE });

test.beforeEach(async ({ page, context }) => {
  await isolateBrowser(page, context);
});

/** Today's stops in the order shown (visits off the route have no number). */
const stopIds = (page: Page) =>
  page
    .locator('li[id^="stop-"]')
    .evaluateAll((items) => items.filter((item) => item.querySelector(".stop-no")).map((item) => item.id));

/** Nothing wider than the phone: no sideways scrolling. */
async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

const ON_MY_WAY_SENT = /On my way sent at \d{1,2}:\d{2} (AM|PM)/;

test("the field day on a phone: Today, a stop moved, On my way, the customer sees On the way, photo, completed", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const adminFailures = watchForFailures(page);

  // --- The customer, in a browser of their own: a mobile number, texts agreed -----------------
  const customerContext = await browser.newContext({ viewport: PHONE });
  const customerPage = await customerContext.newPage();
  await isolateBrowser(customerPage, customerContext);
  const customerFailures = watchForFailures(customerPage);
  const customer = newCustomer("Otto", "Way", "on-my-way-password");
  await signUpCustomer(customerPage, customer);
  await customerPage.goto("/customer-dashboard/yard");
  await expect(customerPage.getByLabel("Text me about my visits")).not.toBeChecked();
  await expect(customerPage.getByText(/Reply STOP to opt out/)).toBeVisible();
  // A landline abroad is not a mobile number: refused, with the message.
  await customerPage.getByLabel("Mobile number").fill("+44 20 7183 8750");
  await customerPage.getByLabel("Text me about my visits").check();
  await customerPage.getByRole("button", { name: "Save yard profile" }).click();
  await expect(customerPage.getByText("Enter a mobile number", { exact: false }).first()).toBeVisible();
  await customerPage.getByLabel("Mobile number").fill("702-555-0123");
  await customerPage.getByLabel("Text me about my visits").check();
  await expectNoAxeViolations(customerPage, "on Your Yard");
  await customerPage.getByRole("button", { name: "Save yard profile" }).click();
  await expectToast(customerPage, true, "Success", "Yard profile saved");
  await expect(customerPage.getByText("+17025550123")).toBeVisible();
  await expectNoFailures(customerPage, customerFailures, "on Your Yard");

  // --- The admin makes today's visit (late today: still ahead whenever the test runs) --------
  await signInAsAdmin(page);
  await createVisitFor(page, true, customer, businessTodayAt("23:59"));
  await expectNoFailures(page, adminFailures, "creating the visit");

  // --- Today in route order ----------------------------------------------------------------
  await page.goto("/admin-dashboard/visits/today");
  await expect(page.getByRole("heading", { name: "Today", level: 2 })).toBeVisible();
  await expect(page.getByText(/\d+ stops · [\d.]+ mi · /)).toBeVisible();
  await expect(page.getByText("Estimated arrival").first()).toBeVisible();
  const card = page.locator('li[id^="stop-"]').filter({ hasText: customer.fullName });
  await expect(card).toHaveCount(1);
  const visitId = (await card.getAttribute("id"))!.replace(/^stop-/, "");
  await expectNoOverflow(page);
  await expectNoAxeViolations(page, "on Today in route order");
  await expectNoFailures(page, adminFailures, "on Today");

  // --- A stop moved down: kept across a reload, until "Optimise again" ------------------------
  const before = await stopIds(page);
  expect(before.length).toBeGreaterThanOrEqual(2);
  const [first, second] = before;
  await page
    .locator(`#${first}`)
    .getByRole("button", { name: /Move down/ })
    .click();
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/today/);
  await expectToast(page, true, "Success", "Order saved");
  await expect(page.getByText("Order set by hand.")).toBeVisible();
  await expectNoFailures(page, adminFailures, "moving a stop");

  await page.reload();
  const after = await stopIds(page);
  expect(after.indexOf(second)).toBe(0);
  expect(after.indexOf(second)).toBeLessThan(after.indexOf(first));
  await expect(page.locator(`#${second} .stop-no`)).toHaveText(/1$/);
  await expect(page.getByText("Order set by hand.")).toBeVisible();
  await expectNoAxeViolations(page, "on Today with a hand-made order");

  await page.getByRole("button", { name: "Optimise again" }).click();
  await expectToast(page, true, "Success", "Route optimised");
  await expect(page.getByText("Order set by hand.")).toHaveCount(0);
  expect((await stopIds(page)).slice(0, 2)).toEqual([first, second]);
  await expectNoFailures(page, adminFailures, "after Optimise again");

  // --- "On my way" from the customer's card ---------------------------------------------------
  await card.getByRole("button", { name: "On my way" }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/today$/);
  // Texts are not set up on the test server: the customer is told by e-mail only.
  await expectToast(page, true, "On my way sent", "The customer was told by e-mail:");
  await expect(card.getByText(ON_MY_WAY_SENT)).toBeVisible();
  await expect(card.getByRole("button", { name: "On my way" })).toHaveCount(0);
  await expectNoFailures(page, adminFailures, "after On my way");

  const mail = await waitForMail(customer.email, "Your technician is on the way");
  expect(mail.text).toMatch(/Estimated arrival: between \d{1,2}:\d{2} (AM|PM) – \d{1,2}:\d{2} (AM|PM) today/);
  expect(mail.text).toContain(`/customer-dashboard/visits/${visitId}`);

  // --- The customer's visit page: On the way --------------------------------------------------
  const customerVisit = `/customer-dashboard/visits/${visitId}`;
  await customerPage.goto(customerVisit);
  const onTheWay = customerPage.getByRole("status").filter({ hasText: "On the way" });
  await expect(onTheWay).toContainText(/your technician set out at \d{1,2}:\d{2} (AM|PM)/);
  await expectNoOverflow(customerPage);
  await expectNoAxeViolations(customerPage, "on the customer's visit page, on the way");
  await expectNoFailures(customerPage, customerFailures, "on the customer's visit page");

  // --- The admin opens the visit: when it was sent, the History line, a photo, completed -------
  await card.getByRole("link", { name: /Open visit/ }).click();
  await expect(page).toHaveURL(`/admin-dashboard/visits/${visitId}`);
  await expect(page.getByText(ON_MY_WAY_SENT)).toBeVisible();
  await expect(page.getByText(/Texts are not set up: customers get e-mails only/)).toBeVisible();
  await expect(page.getByRole("button", { name: "On my way" })).toHaveCount(0);
  const history = page.getByRole("region", { name: "History" });
  await expect(
    history.getByText(/On my way sent by e-mail, arriving \d{1,2}:\d{2} (AM|PM) – \d{1,2}:\d{2} (AM|PM)/),
  ).toBeVisible();
  await expectNoOverflow(page);
  await expectNoAxeViolations(page, "on the visit page");
  await expectNoFailures(page, adminFailures, "on the visit page");

  // A photo "taken" with the phone's camera input.
  await waitForHydration(page);
  await page.locator("#before-camera").setInputFiles(PHOTO);
  await page.getByRole("button", { name: "Upload Before" }).click();
  await expectToast(page, true, "Success", "before image uploaded successfully");
  await expect(page).toHaveURL(`/admin-dashboard/visits/${visitId}`);
  await expectNoFailures(page, adminFailures, "after the upload");
  await waitForToastsToClear(page, true);

  await waitForHydration(page);
  await page.getByRole("button", { name: "Mark Completed" }).click();
  await expectToast(page, true, "Success", "Visit marked completed");
  await expect(history.getByText(/Status scheduled → completed/)).toBeVisible();
  await expect(page.getByText(/Completed at \d{1,2}:\d{2} (AM|PM)/).first()).toBeVisible();
  await expectNoAxeViolations(page, "on the completed visit page");
  await expectNoFailures(page, adminFailures, "after Mark Completed");

  // --- The customer's page again: completed, no longer On the way -----------------------------
  await customerPage.reload();
  await expect(customerPage.getByText("completed", { exact: true }).first()).toBeVisible();
  await expect(customerPage.getByRole("img", { name: /^Before photo of Weekly Service/ }).first()).toBeVisible();
  await expect(customerPage.getByRole("status").filter({ hasText: "On the way" })).toHaveCount(0);
  await expect(customerPage.getByText(/On the way/)).toHaveCount(0);
  await expectNoAxeViolations(customerPage, "on the customer's completed visit");
  await expectNoFailures(customerPage, customerFailures, "on the customer's completed visit");

  await customerContext.close();
});
