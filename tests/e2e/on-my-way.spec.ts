import { expect, test, type Page } from "@playwright/test";
import {
  expectNoAxeViolations,
  expectToast,
  pickCustomer,
  signIn,
  signInAsAdmin,
  useClientAddress,
  waitForHydration,
  waitForMail,
} from "./helpers";

// Each test signs in from its own client address, so the sign-in limits of one test never meet another's.
test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title>" }),
  );
});

const unique = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** Signs out by dropping the session (on a phone the Logout button sits behind the Menu). */
async function logout(page: Page) {
  await page.context().clearCookies();
}

/** Today's date at 11:59 pm in the business's time zone: later than now, whenever the test runs. */
function todayLate() {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
  return `${day}T23:59`;
}

test.use({ viewport: { width: 390, height: 844 } });

test("on a phone: the customer agrees to texts, the admin presses On my way on Today, the e-mail arrives and the customer's visit shows On the way", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));

  // --- A customer with a mobile number, texts agreed ------------------------------------
  const fullName = `Otto ${unique("Way")}`;
  const email = `${unique("onmyway")}@example.com`;
  const password = "on-my-way-password";
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await signIn(page, email, password);
  await page.goto("/customer-dashboard/yard");
  await expect(page.getByLabel("Text me about my visits")).not.toBeChecked();
  await expect(page.getByText(/Reply STOP to opt out/)).toBeVisible();
  await page.getByLabel("Mobile number").fill("+44 20 7183 8750");
  await page.getByLabel("Text me about my visits").check();
  await page.getByRole("button", { name: "Save yard profile" }).click();
  await expect(page.getByText("Enter a mobile number", { exact: false }).first()).toBeVisible();
  await page.getByLabel("Mobile number").fill("702-555-0123");
  await page.getByLabel("Text me about my visits").check();
  await expectNoAxeViolations(page, "on Your Yard");
  await page.getByRole("button", { name: "Save yard profile" }).click();
  await expectToast(page, true, "Success", "Yard profile saved");
  await expect(page.getByText("+17025550123")).toBeVisible();
  await logout(page);

  // --- The admin makes today's visit and presses On my way on Today ----------------------
  await signInAsAdmin(page);
  await waitForHydration(page);
  await pickCustomer(page, true, email, `${fullName} (${email}) (unverified)`);
  await page.getByLabel("Service Type").selectOption("Weekly Service");
  await page.getByLabel("Service Date").fill(todayLate());
  await page.getByRole("button", { name: "Create Service" }).click();
  await expectToast(page, true, "Success", "Service created successfully");

  await page.goto("/admin-dashboard/visits/today");
  const card = page.getByRole("listitem").filter({ hasText: fullName });
  const visitHref = await card.getByRole("link").first().getAttribute("href");
  const visitId = visitHref!.split("/").pop()!;
  await expectNoAxeViolations(page, "on Today");
  await card.getByRole("button", { name: "On my way" }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/today$/);
  await expectToast(page, true, "On my way sent", "by e-mail:");
  await expect(card.getByText(/On my way sent at \d{1,2}:\d{2} (AM|PM)/)).toBeVisible();

  // The visit page says when, and that texts are not set up on this server.
  await page.goto(`/admin-dashboard/visits/${visitId}`);
  await expect(page.getByText(/On my way sent at \d{1,2}:\d{2} (AM|PM)/)).toBeVisible();
  await expect(page.getByText(/Texts are not set up: customers get e-mails only/)).toBeVisible();
  await expect(page.getByRole("button", { name: "On my way" })).toHaveCount(0);
  await expectNoAxeViolations(page, "on the visit page");

  const mail = await waitForMail(email, "Your technician is on the way");
  expect(mail.text).toMatch(/Estimated arrival: between \d{1,2}:\d{2} (AM|PM) – \d{1,2}:\d{2} (AM|PM) today/);
  await logout(page);

  // --- The customer's visit page: On the way ------------------------------------------------
  await signIn(page, email, password);
  await page.goto(`/customer-dashboard/visits/${visitId}`);
  await expect(page.getByRole("status").filter({ hasText: "On the way" })).toBeVisible();
  await expectNoAxeViolations(page, "on the customer's visit page");
  expect(pageErrors).toEqual([]);
});
