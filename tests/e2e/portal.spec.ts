import { closeSync, mkdtempSync, openSync, rmSync, writeSync, ftruncateSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import {
  DEV_CUSTOMER,
  expectNoAxeViolations,
  expectToast,
  pickCustomer,
  signIn,
  signInAsAdmin,
  useClientAddress,
  waitForHydration,
  waitForToastsToClear,
} from "./helpers";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const BEFORE_JPG = path.join(FIXTURES, "yard-before.jpg");
const AFTER_MP4 = path.join(FIXTURES, "yard-after.mp4");

// Each test signs in from its own client address, so the per-client sign-in limits of one test
// never meet another's.
test.beforeEach(async ({ page, context }) => {
  await useClientAddress(page);
  await stubOutsideWorld(context);
});

/** Nothing leaves the machine: the external calendar (and anything else off 127.0.0.1) is a stub. */
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

/**
 * The toast of an upload, and no toast of the opposite outcome beside it (an upload once showed
 * "Success" and "Upload Failed" together). Toasts of earlier steps are waited out first.
 */
async function expectOnlyUploadToast(page: Page, js: boolean, title: string, description?: string) {
  await expectToast(page, js, title, description);
  const all = js ? page.locator("[data-sonner-toast]") : page.getByTestId("flash-toast");
  const opposite = title === "Success" ? /Upload Failed|File Too Large/ : /Success/;
  await expect(all.filter({ hasText: opposite })).toHaveCount(0);
}

const unique = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** A customer of their own, so tests running side by side never see each other's media. */
async function signUpCustomer(page: Page, fullName: string) {
  const email = `${unique("portal")}@example.com`;
  const password = "portal-password";
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill(fullName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  return { email, password, fullName };
}

async function logout(page: Page) {
  await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
}

for (const js of [true, false]) {
  test.describe(js ? "portal with JavaScript" : "portal without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("admin records a visit with a before photo and an after video; the customer sees them and books", async ({
      page,
      context,
    }) => {
      // The longest journey (two sign-ins, three uploads, the visit marked completed): slow on a shared machine.
      test.setTimeout(180_000);
      const customer = await signUpCustomer(page, `Casey ${unique("Yard")}`);

      // --- The admin creates the service -------------------------------------------------
      await signInAsAdmin(page);
      await expect(page).toHaveURL(/\/admin-dashboard$/);
      await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
      await expect(page.getByText("Manage services and customers")).toBeVisible();
      const sections = page.getByRole("navigation", { name: "Admin sections" });
      await expect(sections.getByRole("link", { name: "Services & Uploads" })).toHaveAttribute("aria-current", "page");
      await expect(sections.getByRole("link", { name: "Quote Requests" })).toHaveAttribute(
        "href",
        "/admin-dashboard/quotes",
      );
      if (js) await waitForHydration(page);

      // Uploads wait for a service.
      await page.getByRole("link", { name: "Upload Images" }).click();
      await expect(page.getByText("Create a service first to upload images")).toBeVisible();
      await expect(page.getByLabel("Before Image/Video")).toBeDisabled();
      if (js) await expectNoAxeViolations(page, "on the upload tab without a service");

      await page.getByRole("link", { name: "Create Service" }).click();
      await page.getByRole("button", { name: "Create Service" }).click();
      await expectToast(page, js, "Missing Information", "Please fill in all required fields");

      const customerOption = `${customer.fullName} (${customer.email})`;
      // A customer who has not opened the verification link yet is marked in the picker.
      const pickerOption = `${customerOption} (unverified)`;
      if (js) {
        // The combobox by keyboard: type, arrow to the match, Enter picks it (and does not submit).
        await waitForHydration(page);
        const combobox = page.getByRole("combobox", { name: "Customer", exact: true });
        await combobox.fill(customer.email);
        const match = page.getByRole("option", { name: pickerOption, exact: true });
        await expect(match).toBeVisible();
        await expect(combobox).toHaveAttribute("aria-expanded", "true");
        await expect(page.getByText("1 customer found")).toBeVisible();
        await expectNoAxeViolations(page, "with the customer picker open");
        await combobox.press("ArrowDown");
        await expect(combobox).toHaveAttribute("aria-activedescendant", (await match.getAttribute("id")) ?? "");
        await combobox.press("Enter");
        await expect(combobox).toHaveValue(pickerOption);
        await expect(combobox).toHaveAttribute("aria-expanded", "false");
      } else {
        await pickCustomer(page, js, customer.email, pickerOption);
      }
      await page.getByLabel("Service Type").selectOption("Desert Dash");
      await page.getByLabel("Service Date").fill("2025-06-14T09:30");
      await page.getByLabel("Notes (optional)").fill("Back gate, two dogs");
      if (js) await expectNoAxeViolations(page, "on the create tab");
      await page.getByRole("button", { name: "Create Service" }).click();
      await expectToast(page, js, "Success", "Service created successfully");
      await expect(page).toHaveURL(/[?&]service=[0-9a-f-]{36}/);
      await expect(page.getByTestId("current-service")).toContainText(
        `Desert Dash for ${customerOption} on Jun 14, 2025, 9:30 AM`,
      );
      // The form is cleared except for the customer.
      if (js) await expect(page.getByRole("combobox", { name: "Customer", exact: true })).toHaveValue(pickerOption);
      else
        await expect(page.getByLabel("Customer", { exact: true }).locator("option:checked")).toHaveText(pickerOption);
      await expect(page.getByLabel("Service Type")).toHaveValue("");
      await expect(page.getByLabel("Service Date")).toHaveValue("");
      await expect(page.getByLabel("Notes (optional)")).toHaveValue("");

      // A refused create (no date) keeps what was entered, the customer and the current service.
      const visitId = new URL(page.url()).searchParams.get("service");
      await page.getByLabel("Service Type").selectOption("Desert Dash");
      await page.getByLabel("Notes (optional)").fill("Side gate this time");
      await page.getByRole("button", { name: "Create Service" }).click();
      await expectToast(page, js, "Missing Information", "Please fill in all required fields");
      await expect(page.getByLabel("Service Type")).toHaveValue("Desert Dash");
      await expect(page.getByLabel("Notes (optional)")).toHaveValue("Side gate this time");
      if (js) await expect(page.getByRole("combobox", { name: "Customer", exact: true })).toHaveValue(pickerOption);
      else
        await expect(page.getByLabel("Customer", { exact: true }).locator("option:checked")).toHaveText(pickerOption);
      expect(new URL(page.url()).searchParams.get("service")).toBe(visitId);
      await expect(page.getByTestId("current-service")).toContainText(
        `Desert Dash for ${customerOption} on Jun 14, 2025, 9:30 AM`,
      );

      // --- Uploads: a text file in disguise, then the photo and the video -------------------
      await page.getByRole("link", { name: "Upload Images" }).click();
      await expect(page).toHaveURL(/tab=upload.*service=|service=.*tab=upload/);
      await expect(page.getByText("Supports images and videos (max 50MB)")).toHaveCount(2);
      if (js) await waitForHydration(page);

      await page.getByLabel("Before Image/Video").setInputFiles({
        name: "yard.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from("I am only text pretending to be a photo.\n".repeat(20)),
      });
      await page.getByRole("button", { name: "Upload Before" }).click();
      await expectOnlyUploadToast(page, js, "Upload Failed");
      await waitForToastsToClear(page, js);

      await page.getByLabel("Before Image/Video").setInputFiles(BEFORE_JPG);
      if (js) await expect(page.getByRole("img", { name: "Preview of yard-before.jpg" })).toBeVisible();
      await page.getByRole("button", { name: "Upload Before" }).click();
      await expectOnlyUploadToast(page, js, "Success", "before image uploaded successfully");
      await waitForToastsToClear(page, js);

      await page.getByLabel("After Image/Video").setInputFiles(AFTER_MP4);
      if (js) {
        await expect(page.getByLabel("Preview of yard-after.mp4")).toBeVisible();
        // Hold the upload's answer for a moment so that the progress bar can be seen.
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/resources\/media-upload/, async (route) => {
          await held;
          await route.continue();
        });
        await page.getByRole("button", { name: "Upload After" }).click();
        await expect(page.getByRole("progressbar")).toBeVisible();
        await expect(page.getByText(/Uploading… \d+%/)).toBeVisible();
        release();
      } else {
        await page.getByRole("button", { name: "Upload After" }).click();
      }
      await expectOnlyUploadToast(page, js, "Success", "after video uploaded successfully");
      const uploaded = page.getByRole("heading", { name: "Uploaded for this service" }).locator("..");
      await expect(uploaded.getByRole("img", { name: "Before photo of Desert Dash on Jun 14, 2025" })).toBeVisible();
      await expect(uploaded.locator("video")).toHaveCount(1);

      // The current service survives a reload.
      await page.reload();
      await expect(page.getByTestId("current-service")).toContainText("Desert Dash");
      if (js) await expectNoAxeViolations(page, "on the upload tab with media");

      // The visit is done: the customer's Recent Services and photos come from completed visits
      // (decision 047).
      await page.goto(`/admin-dashboard/visits/${visitId}`);
      if (js) await waitForHydration(page);
      await page.getByRole("button", { name: "Mark Completed" }).click();
      await expectToast(page, js, "Success", "Visit marked completed");
      await logout(page);

      // --- The customer sees the pair and plays the video ----------------------------------
      await signIn(page, customer.email, customer.password);
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await expect(page.getByRole("heading", { name: "Welcome back", level: 1 })).toBeVisible();
      await expect(page.getByRole("main").getByText(customer.email)).toBeVisible();
      const recentVisits = page.getByRole("region", { name: "Recent Services" });
      await expect(recentVisits.getByText("Your last 5 completed services")).toBeVisible();
      await expect(recentVisits.getByText("Desert Dash")).toBeVisible();
      await expect(recentVisits.getByText("completed", { exact: true })).toBeVisible();
      await expect(
        page.getByRole("region", { name: "Upcoming Bookings" }).getByText("No upcoming bookings"),
      ).toBeVisible();

      const mediaSection = page.getByRole("region", { name: "Service Photos & Videos" });
      const photo = mediaSection.getByRole("img", { name: "Before photo of Desert Dash on Jun 14, 2025" });
      await expect(photo).toBeVisible();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
      const video = mediaSection.locator('video[aria-label="After video of Desert Dash on Jun 14, 2025"]');
      await expect(video).toHaveAttribute("controls", "");
      await expect(video).toHaveAttribute("preload", "metadata");
      // Metadata loads through the authorized, range-capable media route.
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
      // Both belong to one visit and are shown together, before first.
      const visit = mediaSection
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: /Desert Dash/ }) });
      await expect(visit.locator("figcaption")).toHaveText(["before", "after"]);
      if (js) {
        await video.evaluate((v: HTMLVideoElement) => {
          v.muted = true;
          return v.play();
        });
        await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
        expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
      }
      if (js) await expectNoAxeViolations(page, "on the customer dashboard");

      const mediaUrl = await photo.getAttribute("src");

      // --- Booking ----------------------------------------------------------------------
      const book = page.getByRole("region", { name: "Book a Service" });
      const bookButton = book.getByRole("button", { name: "Book Appointment" });
      await expect(book.getByText("Please check the agreement box above to proceed with booking")).toBeVisible();
      for (const name of ["Terms of Service", "Privacy Policy", "Disclaimer"]) {
        const link = book.getByRole("link", { name: new RegExp(name) });
        await expect(link).toHaveAttribute("target", "_blank");
        await expect(link).toHaveAttribute("rel", /noopener/);
      }
      const expectCalendar = (url: string) => {
        const calendar = new URL(url);
        expect(calendar.protocol).toBe("https:");
        expect(calendar.searchParams.get("email")).toBe(customer.email);
        expect(calendar.searchParams.get("name")).toBe(customer.fullName);
      };
      if (js) {
        await waitForHydration(page);
        await expect(bookButton).toBeDisabled();
        await book.getByLabel(/I agree to the/).check();
        await expect(bookButton).toBeEnabled();
        const [calendarTab] = await Promise.all([context.waitForEvent("page"), bookButton.click()]);
        await calendarTab.waitForLoadState();
        expectCalendar(calendarTab.url());
        await expect(calendarTab.getByRole("heading", { name: "Booking calendar stub" })).toBeVisible();
        await expect(page).toHaveURL(/\/customer-dashboard$/);
      } else {
        await bookButton.click();
        await expect(page).toHaveURL(/\/customer-dashboard$/);
        await expectToast(page, js, "Agreement Required", "Please agree to the Terms of Service before booking.");
        await page
          .getByRole("region", { name: "Book a Service" })
          .getByLabel(/I agree to the/)
          .check();
        await page
          .getByRole("region", { name: "Book a Service" })
          .getByRole("button", { name: "Book Appointment" })
          .click();
        await expect(page.getByRole("heading", { name: "Booking calendar stub" })).toBeVisible();
        expectCalendar(page.url());
      }

      // --- Another customer cannot open this customer's media --------------------------
      const other = await context.browser()!.newContext({ javaScriptEnabled: js });
      try {
        const otherPage = await other.newPage();
        await useClientAddress(otherPage);
        await signIn(otherPage, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
        const denied = await otherPage.request.get(mediaUrl!);
        expect(denied.status()).toBe(404);
        const mine = await page.request.get(mediaUrl!, { headers: { Range: "bytes=0-9" } });
        expect(mine.status()).toBe(206);
        expect(mine.headers()["content-range"]).toMatch(/^bytes 0-9\/\d+$/);
      } finally {
        await other.close();
      }
    });

    test("a customer opening /admin-dashboard is sent to their dashboard with Access Denied", async ({ page }) => {
      await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await page.goto("/admin-dashboard?tab=upload");
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await expectToast(page, js, "Access Denied", "You don't have admin privileges");
    });

    test("the signed-out are sent to /auth from both dashboards", async ({ page }) => {
      for (const dashboard of ["/customer-dashboard", "/admin-dashboard", "/admin-dashboard?tab=upload"]) {
        await page.goto(dashboard);
        // The page asked for is remembered, to come back to after signing in.
        await expect(page).toHaveURL(`/auth?redirectTo=${encodeURIComponent(dashboard)}`);
      }
    });

    test("the seeded customer's dashboard: badges, bookings, photos, and Logout to /", async ({ page }) => {
      await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
      // The seed's three completed visits of five (decision 047: completed visits only).
      const recentVisits = page.getByRole("region", { name: "Recent Services" });
      await expect(recentVisits.getByRole("listitem")).toHaveCount(3);
      // SPEC 4's colours, as drawn (Tailwind's green-100, blue-100, yellow-100).
      const background = "background-color";
      await expect(recentVisits.getByText("completed", { exact: true })).toHaveCount(3);
      await expect(recentVisits.getByText("completed", { exact: true }).first()).toHaveCSS(
        background,
        "rgb(220, 252, 231)",
      );
      await expect(recentVisits.getByText(/^(scheduled|missed)$/)).toHaveCount(0);
      // The seed's before and after photos (the bundled dataset's pictures), served from storage.
      const photos = page.getByRole("region", { name: "Service Photos & Videos" }).getByRole("img");
      await expect(photos).toHaveCount(4);
      for (const photo of await photos.all()) {
        await photo.scrollIntoViewIfNeeded();
        await expect(photo).toHaveJSProperty("complete", true);
        expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      }
      const bookings = page.getByRole("region", { name: "Upcoming Bookings" });
      await expect(bookings.getByText("confirmed", { exact: true })).toHaveCSS(background, "rgb(220, 252, 231)");
      await expect(bookings.getByText("pending", { exact: true })).toHaveCSS(background, "rgb(254, 249, 195)");
      // Upcoming, soonest first: tomorrow's confirmed booking, then the pending one in nine days.
      await expect(bookings.getByRole("listitem")).toHaveCount(2);
      await expect(bookings.getByRole("listitem").first()).toContainText("confirmed");
      if (js) await expectNoAxeViolations(page, "on the seeded customer's dashboard");
      // Tomorrow's scheduled visit is in the visit history, with its blue badge.
      await recentVisits.getByRole("link", { name: "Visit history" }).click();
      await expect(page.getByRole("heading", { name: "Visit history", level: 1 })).toBeVisible();
      // (The plan's visits are scheduled too: the first badge stands for all.)
      await expect(page.getByRole("main").getByText("scheduled", { exact: true }).first()).toHaveCSS(
        background,
        "rgb(219, 234, 254)",
      );
      await page.getByRole("main").getByRole("link", { name: "Dashboard", exact: true }).click();
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await logout(page);
    });
  });
}

/** As the signed-in admin, creates a service for the customer and opens its upload tab. */
async function createVisitAsAdmin(page: Page, customer: { fullName: string; email: string }, js: boolean) {
  await page.goto("/admin-dashboard");
  await pickCustomer(page, js, customer.fullName, `${customer.fullName} (${customer.email}) (unverified)`);
  await page.getByLabel("Service Type").selectOption("Trash Bin Clean");
  await page.getByLabel("Service Date").fill("2025-08-01T10:00");
  await page.getByRole("button", { name: "Create Service" }).click();
  await expect(page).toHaveURL(/service=/);
  await page.getByRole("link", { name: "Upload Images" }).click();
  await expect(page).toHaveURL(/tab=upload/);
}

test.describe("files over 50 MB", () => {
  let dir: string;
  let bigFile: string;
  test.beforeAll(() => {
    // 50 MB + 1 byte with a real MP4 header; sparse, so it costs no disk.
    dir = mkdtempSync(path.join(os.tmpdir(), "portal-big-"));
    bigFile = path.join(dir, "too-big.mp4");
    const fd = openSync(bigFile, "w");
    writeSync(fd, Buffer.from("00000018667479706d7034320000000069736f6d6d703432", "hex"));
    ftruncateSync(fd, 50 * 1024 * 1024 + 1);
    closeSync(fd);
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("with JavaScript the page refuses the file before sending it", async ({ page }) => {
    const customer = await signUpCustomer(page, `Big ${unique("File")}`);
    await signInAsAdmin(page);
    await createVisitAsAdmin(page, customer, true);
    await waitForHydration(page);
    let posted = false;
    page.on("request", (request) => {
      if (request.method() === "POST") posted = true;
    });
    await page.getByLabel("After Image/Video").setInputFiles(bigFile);
    await expectToast(page, true, "File Too Large", "Maximum file size is 50MB");
    await expect(page.getByLabel("After Image/Video")).toHaveValue("");
    expect(posted).toBe(false);
  });

  test("without JavaScript the server stops it while streaming, answers, and stores nothing", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await useClientAddress(page);
      const customer = await signUpCustomer(page, `Big ${unique("File")}`);
      await signInAsAdmin(page);
      await createVisitAsAdmin(page, customer, false);
      const uploadTab = page.url();
      await page.getByLabel("After Image/Video").setInputFiles(bigFile);
      await page.getByRole("button", { name: "Upload After" }).click();
      await expectToast(page, false, "File Too Large", "Maximum file size is 50MB");
      expect(page.url()).toBe(uploadTab);
      await expect(page.getByRole("heading", { name: "Uploaded for this service" })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});

// axe runs in the page, so only with JavaScript; the markup it checks is the server's.
test("the dashboards have no axe violations in dark mode", async ({ page }) => {
  const darkPage = async (url: string) => {
    // Loaded again so that the sign-in toast (not part of the dashboards) has gone.
    await page.goto(url);
    await waitForHydration(page);
    await page.evaluate(() => document.documentElement.classList.add("dark"));
  };
  await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
  await darkPage("/customer-dashboard");
  await expectNoAxeViolations(page, "on the customer dashboard (dark)");
  await logout(page);
  await signInAsAdmin(page);
  for (const url of ["/admin-dashboard", "/admin-dashboard?tab=upload"]) {
    await darkPage(url);
    await expectNoAxeViolations(page, `on ${url} (dark)`);
  }
});
