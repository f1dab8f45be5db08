import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  businessTodayAt,
  caughtMails,
  createVisitFor,
  expectNoAxeViolations,
  expectNoFailures,
  isolateBrowser,
  newCustomer,
  signInAsAdmin,
  signUpCustomer,
  waitForHydration,
  waitForMail,
  watchForFailures,
} from "./helpers";

const PHOTO = path.resolve(import.meta.dirname, "../fixtures/yard-before.jpg");
const PHONE = { width: 390, height: 844 };

// Issue 36 item 3's journey (decision 127), on a 390 x 844 phone with axe: the one who works the
// route (here the owner of a one-truck business; a technician's Today is their route only) opens
// Today and the visit with the signal, loses it (Playwright's setOffline, which a service worker's
// fetches feel too in Chromium), reads the visit from the phone's cache, uploads the after photo
// and marks the visit completed; both wait on the phone. The signal returns, both are sent, and
// the customer gets exactly one "visit is complete" e-mail.
test.use({ viewport: PHONE, serviceWorkers: "allow" });

test.beforeEach(async ({ page, context }) => {
  await isolateBrowser(page, context);
});

const status = (page: Page) => page.locator("#offline-status");

/** Whether the service worker keeps this page (its cache is the phone's, read from the page). */
const cached = (page: Page, pathname: string) =>
  page.evaluate(async (p) => Boolean(await (await caches.open("staff-pages")).match(p)), pathname);

test("offline on a phone: the visit stays readable, a photo and Mark Completed wait, are sent once", async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  const failures = watchForFailures(page);

  const customerContext = await browser.newContext({ viewport: PHONE });
  const customerPage = await customerContext.newPage();
  await isolateBrowser(customerPage, customerContext);
  const customer = newCustomer("Olga", "Offline", "offline-app-password");
  await signUpCustomer(customerPage, customer);
  await customerContext.close();

  await signInAsAdmin(page);
  await createVisitFor(page, true, customer, businessTodayAt("23:58"));

  // --- With the signal: Today registers the worker, which keeps Today and its stops -----------
  await page.goto("/admin-dashboard/visits/today");
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // Controlled from the next load on: Today again, through the worker, names today's stops.
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  const card = page.locator('li[id^="stop-"]').filter({ hasText: customer.fullName });
  await expect(card).toHaveCount(1);
  const visitId = (await card.getAttribute("id"))!.replace(/^stop-/, "");
  const visitPath = `/admin-dashboard/visits/${visitId}`;
  await expect.poll(() => cached(page, "/admin-dashboard/visits/today")).toBe(true);
  await expect.poll(() => cached(page, visitPath), { timeout: 20_000 }).toBe(true);
  await expect(status(page)).toContainText("No changes waiting to send");
  await expectNoAxeViolations(page, "on Today with the phone app");

  await page.goto(visitPath);
  await waitForHydration(page);
  await expectNoFailures(page, failures, "with the signal");

  // --- No signal: the visit page comes from the phone, the changes wait on it ------------------
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("button", { name: "Mark Completed" })).toBeVisible();
  await expect(status(page)).toContainText("Offline.");
  await page.locator("#after-file").setInputFiles(PHOTO);
  await page.getByRole("button", { name: "Upload After" }).click();
  await expect(status(page)).toContainText("1 change waiting to send");
  await page.getByRole("button", { name: "Mark Completed" }).click();
  await expect(status(page)).toContainText("2 changes waiting to send");
  await expect(status(page)).toContainText("Saved on this phone: Mark Completed");
  await expectNoAxeViolations(page, "offline with two changes waiting");
  const completionMails = () =>
    caughtMails().filter(
      (m) =>
        m.envelopeTo.includes(customer.email.toLowerCase()) && m.subject === "Your Weekly Service visit is complete",
    );
  expect(completionMails()).toEqual([]);

  // --- The signal returns: both are sent, in the order made ----------------------------------
  await context.setOffline(false);
  await expect(status(page)).toContainText("No changes waiting to send", { timeout: 30_000 });
  await expect(status(page)).toContainText(/Last sync: \d{1,2}:\d{2}/);
  await expect(status(page).locator("[data-offline-problems] li")).toHaveCount(0);
  const mail = await waitForMail(customer.email, "Your Weekly Service visit is complete");
  // The photo went first, so the completion e-mail carries it (decision 100's after photo).
  expect(mail.attachments?.length ?? 0).toBeGreaterThan(0);

  await page.reload();
  await expect(page.getByText(/Completed at \d{1,2}:\d{2}/).first()).toBeVisible();
  await expectNoAxeViolations(page, "after the changes were sent");
  await expectNoFailures(page, failures, "after sending");
  // Exactly one: a second send of the same change would have been answered from its key.
  await page.waitForTimeout(3_000);
  expect(completionMails()).toHaveLength(1);
});
