import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import {
  expectNoAxeViolations,
  expectToast,
  signIn,
  signInAsAdmin,
  useClientAddress,
  waitForHydration,
} from "./helpers";

// The secret playwright.config.ts gives the server.
const CAL_COM_SECRET = "e2e-cal-com-webhook-secret-0123456789";
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/webhooks/cal-com-booking-created.json");

test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await stubOutsideWorld(context);
});

/** Nothing leaves the machine: the external calendar is a stub page. */
async function stubOutsideWorld(context: BrowserContext) {
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><html lang=en><title>Calendar</title><h1>Booking calendar stub</h1></html>",
      }),
  );
}

const unique = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

async function signUp(page: Page, fullName: string, email: string) {
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("booking-password");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth$/);
}

/** A pending Cal.com booking for `attendee`, nine days ahead, delivered to the signed webhook. */
async function deliverPendingBooking(request: APIRequestContext, attendee: string, uid: string) {
  const fixture = JSON.parse(readFileSync(FIXTURE, "utf8"));
  const start = new Date(Date.now() + 9 * 24 * 3600 * 1000);
  start.setUTCHours(18, 0, 0, 0);
  const body = JSON.stringify({
    ...fixture,
    triggerEvent: "BOOKING_REQUESTED",
    createdAt: new Date().toISOString(),
    payload: {
      ...fixture.payload,
      uid,
      status: "PENDING",
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 30 * 60 * 1000).toISOString(),
      attendees: [{ ...fixture.payload.attendees[0], email: attendee }],
      metadata: {},
    },
  });
  return request.post("/resources/webhooks/cal-com", {
    data: body,
    headers: {
      "Content-Type": "application/json",
      "X-Cal-Signature-256": createHmac("sha256", CAL_COM_SECRET).update(body).digest("hex"),
    },
  });
}

test.use({ viewport: { width: 1280, height: 900 } });

test("a booking made through the dashboard's calendar link reaches the customer and becomes a visit", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);

  // --- The customer agrees and presses Book Appointment ---------------------------------------
  const email = `${unique("booker")}@example.com`;
  await signUp(page, "Robin Booker", email);
  await signIn(page, email, "booking-password");
  await expect(page).toHaveURL(/\/customer-dashboard$/);
  await waitForHydration(page);
  const upcoming = page.getByRole("region", { name: "Upcoming Bookings" });
  await expect(upcoming.getByText("No upcoming bookings")).toBeVisible();

  const book = page.getByRole("region", { name: "Book a Service" });
  await book.getByLabel(/I agree to the/).check();
  const [calendarTab] = await Promise.all([
    context.waitForEvent("page"),
    book.getByRole("button", { name: "Book Appointment" }).click(),
  ]);
  await calendarTab.waitForLoadState();
  // The link carries the signed reference (the bundled calendar is Calendly: utm_content).
  const calendarUrl = new URL(calendarTab.url());
  const reference = calendarUrl.searchParams.get("utm_content") ?? calendarUrl.searchParams.get("metadata[customer]");
  expect(reference).toMatch(/^[0-9a-f-]{36}\.[0-9a-z]+\.[A-Za-z0-9_-]{32}$/);
  await calendarTab.close();

  // --- The calendar's signed delivery arrives --------------------------------------------------
  const start = new Date(Date.now() + 5 * 24 * 3600 * 1000);
  start.setUTCHours(17, 0, 0, 0);
  const uid = unique("e2e");
  const fixture = JSON.parse(readFileSync(FIXTURE, "utf8"));
  const body = JSON.stringify({
    ...fixture,
    createdAt: new Date().toISOString(),
    payload: {
      ...fixture.payload,
      uid,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 30 * 60 * 1000).toISOString(),
      attendees: [{ ...fixture.payload.attendees[0], email, name: "Robin Booker" }],
      metadata: { customer: reference },
    },
  });
  const unsigned = await request.post("/resources/webhooks/cal-com", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Cal-Signature-256": "0".repeat(64) },
  });
  expect(unsigned.status()).toBe(401);
  const delivered = await request.post("/resources/webhooks/cal-com", {
    data: body,
    headers: {
      "Content-Type": "application/json",
      "X-Cal-Signature-256": createHmac("sha256", CAL_COM_SECRET).update(body).digest("hex"),
    },
  });
  expect(delivered.status()).toBe(200);
  expect(await delivered.json()).toMatchObject({ outcome: "created" });

  // --- The customer's Upcoming Bookings shows it -----------------------------------------------
  await page.reload();
  await waitForHydration(page);
  await expect(upcoming.getByText("Weekly Service")).toBeVisible();
  // SPEC 4: confirmed is green (Tailwind's green-100, as drawn).
  await expect(upcoming.getByText("confirmed", { exact: true })).toHaveCSS("background-color", "rgb(220, 252, 231)");
  await expectNoAxeViolations(page, "on the customer dashboard with a calendar booking");

  // --- The admin creates the visit from it -----------------------------------------------------
  const adminContext = await context.browser()!.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await stubOutsideWorld(adminContext);
    const admin = await adminContext.newPage();
    await useClientAddress(admin);
    await signInAsAdmin(admin);
    await admin.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Bookings" }).click();
    await expect(admin).toHaveURL(/\/admin-dashboard\/bookings$/);
    await expect(admin.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
    await waitForHydration(admin);
    const card = admin.getByTestId("booking").filter({ hasText: email });
    await expect(card).toHaveCount(1);
    await expect(card.getByText("Customer: Robin Booker")).toBeVisible();
    await expect(card.getByLabel("Visit type")).toHaveValue("Weekly Service");
    await expectNoAxeViolations(admin, "on the admin's Bookings page");

    await card.getByRole("button", { name: "Create Visit" }).click();
    await expectToast(admin, true, "Success", "Visit created from booking");
    await expect(card.getByText("Visit created")).toBeVisible();
    await expect(card.getByRole("button", { name: "Create Visit" })).toHaveCount(0);
  } finally {
    await adminContext.close();
  }

  // The visit, five days ahead, is in the customer's visit history; Recent Services lists
  // completed visits only (decision 047).
  await page.reload();
  const recent = page.getByRole("region", { name: "Recent Services" });
  await expect(recent.getByText("No services yet")).toBeVisible();
  await recent.getByRole("link", { name: "Visit history" }).click();
  await expect(page.getByRole("main").getByRole("link", { name: "Weekly Service" })).toBeVisible();
  await expect(page.getByRole("main").getByText("scheduled", { exact: true })).toBeVisible();
});

test("loaded as a document, Bookings ships no React, a booking's form posts once, and the admin's tabs still work", async ({
  page,
  request,
}) => {
  const attendee = `${unique("static")}@example.com`;
  expect((await deliverPendingBooking(request, attendee, unique("static"))).status()).toBe(200);
  await signInAsAdmin(page);

  // A document load: a static page (decision 077), its plain scripts only, no Remix.
  await page.goto("/admin-dashboard/bookings?unmatched=1");
  await waitForHydration(page); // set by the panel's script on a static page
  expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
  const scripts = await page.locator("script[src]").evaluateAll((els) => els.map((el) => el.getAttribute("src") ?? ""));
  expect(scripts.filter((src) => !src.startsWith("/build/browser/"))).toEqual([]);
  expect(scripts.some((src) => src.includes("/admin-bookings-"))).toBe(true);
  await expectNoAxeViolations(page, "on the static Bookings page");

  // A second press of Confirm while the first post is on its way is held back by the page's
  // script: of two presses in a row, the second submit is cancelled and the buttons say busy.
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/admin-dashboard/bookings") posts.push(r.url());
  });
  const card = page.getByTestId("booking").filter({ hasText: attendee });
  const presses = await card.locator("form").evaluate((form: HTMLFormElement) => {
    const cancelled: boolean[] = [];
    // Registered after the page's script, so it sees what that script decided.
    form.addEventListener("submit", (event) => cancelled.push(event.defaultPrevented));
    const confirm = [...form.querySelectorAll("button")].find((b) => b.textContent === "Confirm")!;
    form.requestSubmit(confirm);
    const busy = confirm.getAttribute("aria-disabled");
    form.requestSubmit(confirm);
    return { cancelled, busy };
  });
  expect(presses).toEqual({ cancelled: [false, true], busy: "true" });
  await expectToast(page, true, "Success", "Booking confirmed");
  await expect(card.getByText("confirmed", { exact: true })).toBeVisible();
  await expect(page.getByTestId("flash-toast").filter({ hasText: "Error" })).toHaveCount(0);
  expect(posts).toHaveLength(1);

  // From a hydrated admin page, the Bookings tab is a client-side navigation: the static page
  // renders inside the running app, which keeps its scripts, so the next tab works as well.
  await page.goto("/admin-dashboard");
  await waitForHydration(page);
  const tabs = page.getByRole("navigation", { name: "Admin sections" });
  await tabs.getByRole("link", { name: "Bookings" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
  await tabs.getByRole("link", { name: "Visits" }).click();
  await expect(page.getByRole("heading", { name: "Visits", level: 2 })).toBeVisible();
  expect(await page.evaluate(() => "__remixContext" in window)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBe("true");
  expect(await page.locator("script[type=module]").count()).toBeGreaterThan(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the admin confirms a pending calendar booking and assigns an unmatched one", async ({ page, request }) => {
    const attendee = `${unique("walk-in")}@example.com`;
    const delivered = await deliverPendingBooking(request, attendee, unique("nojs"));
    expect(delivered.status()).toBe(200);
    // A customer of its own: assigning to the seeded customer would add to the bookings that
    // portal.spec counts on the seeded dashboard.
    const customerEmail = `${unique("assignee")}@example.com`;
    await signUp(page, "Ari Assignee", customerEmail);

    await signInAsAdmin(page);
    await page.goto("/admin-dashboard/bookings?unmatched=1");
    const card = page.getByTestId("booking").filter({ hasText: attendee });
    await expect(card.getByText("Unmatched")).toBeVisible();
    await expect(card.getByText("pending", { exact: true })).toBeVisible();

    // One form per booking (decision 076): Confirm does not ask for the e-mail field beside it.
    await card.getByLabel("Customer e-mail").fill("");
    await card.getByRole("button", { name: "Confirm" }).click();
    await expectToast(page, false, "Booking confirmed");
    await expect(card.getByText("confirmed", { exact: true })).toBeVisible();

    // Assign does: with the field empty the browser keeps the form, and nothing is posted.
    await card.getByLabel("Customer e-mail").fill("");
    await card.getByRole("button", { name: "Assign Customer" }).click();
    expect(
      await card.getByLabel("Customer e-mail").evaluate((input: HTMLInputElement) => input.validity.valueMissing),
    ).toBe(true);
    await expect(card.getByText("Unmatched")).toBeVisible();
    await card.getByLabel("Customer e-mail").fill(customerEmail);
    await card.getByRole("button", { name: "Assign Customer" }).click();
    await expectToast(page, false, "Customer assigned");
    // Assigned, it leaves the Unmatched filter.
    await expect(page.getByTestId("booking").filter({ hasText: attendee })).toHaveCount(0);
  });

  test("a stranger's booking with a customer's e-mail waits Unmatched, with a hint, until one press assigns it", async ({
    page,
    request,
  }) => {
    const customerEmail = `${unique("typed")}@example.com`;
    await signUp(page, "Tess Typed", customerEmail);
    // Someone else types that address into the public calendar: no signed reference.
    expect((await deliverPendingBooking(request, customerEmail, unique("stranger"))).status()).toBe(200);

    await signInAsAdmin(page);
    await page.goto("/admin-dashboard/bookings?unmatched=1");
    const card = page.getByTestId("booking").filter({ hasText: customerEmail });
    await expect(card.getByText("Unmatched")).toBeVisible();
    // The new account's address is not verified yet, and the hint says so.
    await expect(card.getByText("Matches customer Tess Typed by e-mail (unverified)")).toBeVisible();
    await expect(card.getByLabel("Customer e-mail")).toHaveValue(customerEmail);
    await card.getByRole("button", { name: "Assign Customer" }).click();
    await expectToast(page, false, "Customer assigned");
    await expect(page.getByTestId("booking").filter({ hasText: customerEmail })).toHaveCount(0);
  });
});
