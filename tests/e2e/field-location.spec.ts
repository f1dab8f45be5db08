import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
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
  waitForToastsToClear,
  watchForFailures,
  type NewCustomer,
} from "./helpers";

const PHOTO = path.resolve(import.meta.dirname, "../fixtures/yard-before.jpg");
const PHONE = { width: 390, height: 844 };
// Two yards in Las Vegas, where the phone says it is.
const FIRST_YARD = { latitude: 36.169941, longitude: -115.13983 };
const SECOND_YARD = { latitude: 36.114647, longitude: -115.172813 };
const onFile = (yard: { latitude: number; longitude: number }) =>
  `On file: ${yard.latitude.toFixed(5)}, ${yard.longitude.toFixed(5)}.`;

// Issue 35, item 1 (docs/decisions/108): the technician's phone, 390 x 844, with the position
// granted, against the production server and its own headers (Permissions-Policy included).
// "Use my current location" saves the yard's coordinates, and a visit completed at a yard that
// has none records them. With geolocation=() the browser refused the position before the page
// asked: the button said "Your location is not available" and the completed visit recorded none.
test.use({ viewport: PHONE, geolocation: FIRST_YARD, permissions: ["geolocation"] });

test.beforeEach(async ({ page, context }) => {
  await isolateBrowser(page, context);
});

/** A customer of the test's own, signed up in a browser of their own (no position there). */
async function signedUpCustomer(browser: Browser, tag: string): Promise<NewCustomer> {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await isolateBrowser(page, context);
  const customer = newCustomer("Yard", tag, "yard-location-password");
  await signUpCustomer(page, customer);
  await context.close();
  return customer;
}

/** Today's card of the customer's visit, then its page; answers the page's response headers. */
async function openVisit(page: Page, customer: NewCustomer) {
  await page.goto("/admin-dashboard/visits/today");
  const card = page.locator('li[id^="stop-"]').filter({ hasText: customer.fullName });
  await expect(card).toHaveCount(1);
  const visitId = (await card.getAttribute("id"))!.replace(/^stop-/, "");
  const response = await page.goto(`/admin-dashboard/visits/${visitId}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Yard location" })).toBeVisible();
  return { visitId, headers: response!.headers() };
}

test("on a phone with the position granted: Use my current location saves the yard, and a completed visit records it", async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  const failures = watchForFailures(page);
  const first = await signedUpCustomer(browser, "Locate");
  const second = await signedUpCustomer(browser, "Complete");
  await signInAsAdmin(page);
  // Late today: still ahead whenever the test runs, so both are on Today.
  await createVisitFor(page, true, first, businessTodayAt("23:58"));
  await createVisitFor(page, true, second, businessTodayAt("23:59"));
  await expectNoFailures(page, failures, "creating the visits");

  // --- The page's own headers let it ask; nothing else is turned on ---------------------------
  const { headers } = await openVisit(page, first);
  const policy = headers["permissions-policy"];
  expect(policy).toContain("geolocation=(self)");
  expect(policy).toContain("camera=()");
  expect(policy).toContain("microphone=()");
  await waitForHydration(page);
  // Chromium's own view of the policy this document got (document.featurePolicy): with
  // geolocation=() the permission still read "granted" while every position request failed.
  type FeaturePolicy = { allowsFeature(name: string): boolean };
  const features = await page.evaluate(async () => {
    const policy = (document as unknown as { featurePolicy: FeaturePolicy }).featurePolicy;
    return {
      permission: (await navigator.permissions.query({ name: "geolocation" })).state,
      allowed: ["geolocation", "camera", "microphone", "payment", "usb"].filter((name) => policy.allowsFeature(name)),
    };
  });
  expect(features.permission).toBe("granted");
  expect(features.allowed).toEqual(["geolocation"]);

  // --- "Use my current location" ---------------------------------------------------------------
  await expect(page.getByText(/None on file: Today places this yard by its ZIP code's centre/)).toBeVisible();
  await page.getByRole("button", { name: "Use my current location" }).click();
  await expectToast(page, true, "Success", "Yard location saved");
  await expect(page.getByText(onFile(FIRST_YARD))).toBeVisible();
  await expect(page.getByText(/Your location is not available/)).toHaveCount(0);
  await expectNoFailures(page, failures, "after Use my current location");
  await expectNoAxeViolations(page, "on the visit page with the yard located");
  await waitForToastsToClear(page, true);

  // Stored, not only shown: a fresh load reads it back from the database.
  await page.reload();
  await expect(page.getByText(onFile(FIRST_YARD))).toBeVisible();

  // The camera is off in the policy, and "Take photo" still opens the phone's picker: <input
  // capture> is a file chooser, not getUserMedia, so `camera` does not govern it.
  await waitForHydration(page);
  const chooserOpened = page.waitForEvent("filechooser");
  await page.locator("#after-camera").click();
  const chooser = await chooserOpened;
  expect(chooser.element()).toBeTruthy();
  await chooser.setFiles(PHOTO);
  await page.getByRole("button", { name: "Upload After" }).click();
  await expectToast(page, true, "Success", "after image uploaded successfully");
  await waitForToastsToClear(page, true);

  await waitForHydration(page);
  await page.getByRole("button", { name: "Mark Completed" }).click();
  await expectToast(page, true, "Success", "Visit marked completed");
  // A yard that has coordinates keeps them (the completion's only fill an empty one).
  await expect(page.getByText(onFile(FIRST_YARD))).toBeVisible();
  await expectNoFailures(page, failures, "after completing the first visit");
  await waitForToastsToClear(page, true);

  // --- A visit completed at a yard with none records the phone's position ----------------------
  await context.setGeolocation(SECOND_YARD);
  await openVisit(page, second);
  await expect(page.getByText(/None on file/)).toBeVisible();
  await waitForHydration(page);
  // The Complete form carries the position once the page has it (asked without a prompt).
  const completeForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Mark Completed" }) });
  await expect(completeForm.locator('input[name="latitude"]')).toHaveValue(SECOND_YARD.latitude.toFixed(6));
  await expect(completeForm.locator('input[name="longitude"]')).toHaveValue(SECOND_YARD.longitude.toFixed(6));
  await page.getByRole("button", { name: "Mark Completed" }).click();
  await expectToast(page, true, "Success", "Visit marked completed");
  await page.reload();
  await expect(page.getByText(onFile(SECOND_YARD))).toBeVisible();
  await expect(page.getByText(/Completed at \d{1,2}:\d{2} (AM|PM)/).first()).toBeVisible();
  await expectNoFailures(page, failures, "after completing the second visit");
});
