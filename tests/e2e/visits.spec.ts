import { createHash } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { makePng } from "../helpers/media-bytes";
import {
  businessTodayAt,
  createVisitFor,
  expectNoAxeViolations,
  expectToast,
  isolateBrowser,
  mailLinks,
  newCustomer,
  signInAsAdmin,
  signUpCustomer,
  waitForHydration,
  waitForMail,
  waitForToastsToClear,
} from "./helpers";

const BEFORE_JPG = path.resolve(import.meta.dirname, "../fixtures/yard-before.jpg");
const AFTER_PNG = { name: "yard-after.png", mimeType: "image/png", buffer: makePng(320, 200, [30, 120, 60]) };
const GATE_CODE = "7315-GATE";

test.beforeEach(async ({ page, context }) => {
  await isolateBrowser(page, context);
});

async function logout(page: Page) {
  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/$/);
}

for (const js of [true, false]) {
  test.describe(js ? "visit loop with JavaScript" : "visit loop without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("the customer fills in the yard; the admin works the visit from Today; the customer sees the comparison", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      // A render error in the browser (a server-only import reaching a page) must fail the journey.
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      // --- A customer with a yard profile ------------------------------------------------
      const customer = newCustomer("Vera", "Visits", "visits-password");
      const { fullName, email, password } = customer;
      await signUpCustomer(page, customer);
      await page.getByRole("link", { name: "Your Yard" }).click();
      await expect(page.getByRole("heading", { name: "Your Yard", level: 1 })).toBeVisible();
      await expect(page.getByLabel("E-mail me when a visit is completed or missed")).toBeChecked();
      await page.getByLabel("ZIP").fill("123");
      await page.getByRole("button", { name: "Save yard profile" }).click();
      await expect(page.getByText("Enter a 5-digit ZIP code")).toBeVisible();
      await page.getByLabel("Street address").fill("9 Mesa Court");
      await page.getByLabel("City").fill("Henderson");
      await page.getByLabel("ZIP").fill("89052");
      await page.getByLabel("Gate code").fill(GATE_CODE);
      await page.getByLabel("Number of dogs").fill("2");
      await page.getByLabel("Their names").fill("Rex, Luna");
      await page.getByLabel("A dog may be loose in the yard").check();
      if (js) await expectNoAxeViolations(page, "on Your Yard");
      await page.getByRole("button", { name: "Save yard profile" }).click();
      await expectToast(page, js, "Success", "Yard profile saved");
      // Masked until asked for.
      await expect(page.getByText(GATE_CODE, { exact: true })).toBeHidden();
      await page.getByText("Show gate code").click();
      await expect(page.getByText(GATE_CODE, { exact: true })).toBeVisible();
      await page.getByRole("link", { name: "Dashboard" }).first().click();
      await logout(page);

      // --- The admin creates today's visit and opens it from Today ------------------------
      await signInAsAdmin(page);
      const sections = page.getByRole("navigation", { name: "Admin sections" });
      for (const name of ["Services & Uploads", "Visits", "Customers", "Quote Requests"]) {
        await expect(sections.getByRole("link", { name })).toBeVisible();
      }
      await createVisitFor(page, js, customer, businessTodayAt("12:00"));
      await waitForToastsToClear(page, js);

      await sections.getByRole("link", { name: "Visits" }).click();
      await expect(page.getByRole("heading", { name: "Visits", level: 2 })).toBeVisible();
      await expect(page.getByRole("link", { name: fullName })).toBeVisible();
      expect(await page.content()).not.toContain(GATE_CODE);
      if (js) await expectNoAxeViolations(page, "on Visits");
      await page.getByRole("link", { name: "Today", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Today", level: 2 })).toBeVisible();
      const card = page.getByRole("listitem").filter({ hasText: fullName });
      await expect(card.getByText("Gate code on file")).toBeVisible();
      await expect(card.getByText("A dog may be loose in the yard")).toBeVisible();
      await expect(card.getByText("9 Mesa Court, Henderson, 89052")).toBeVisible();
      expect(await page.content()).not.toContain(GATE_CODE);
      if (js) await expectNoAxeViolations(page, "on Today");
      // Today ships no React (decision 076): entered by a document load, no module scripts,
      // no copy of its loader data.
      if (js) expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
      const todayHtml = await (await page.request.get("/admin-dashboard/visits/today")).text();
      expect(todayHtml).toContain(fullName);
      expect(todayHtml).not.toContain("__remixContext");
      expect(todayHtml).not.toContain('rel="modulepreload"');
      // So are the admin's lists, loaded as documents (decision 077); reached from a hydrated
      // page, as above, they render inside the running app.
      for (const list of ["/admin-dashboard/visits", "/admin-dashboard/customers", "/admin-dashboard/quotes"]) {
        const response = await page.request.get(list);
        const html = await response.text();
        expect({ list, status: response.status(), heading: html.includes('aria-label="Admin sections"') }).toEqual({
          list,
          status: 200,
          heading: true,
        });
        expect({ list, hydrated: html.includes("__remixContext") || html.includes('rel="modulepreload"') }).toEqual({
          list,
          hydrated: false,
        });
      }
      // The Visits list finds this customer's visits by a part of the name (issue 24), and its
      // form works with JavaScript off as well.
      await page.goto("/admin-dashboard/visits");
      await page.getByLabel("Customer name or e-mail").fill(fullName.split(" ")[1]);
      await page.getByRole("button", { name: "Show visits" }).click();
      await expect(page).toHaveURL(/[?&]q=/);
      const found = page.getByRole("region", { name: "Visits table" });
      await expect(found.getByRole("link", { name: fullName })).toHaveCount(1);
      await expect(found.locator("tbody tr")).toHaveCount(1);
      await page.goto("/admin-dashboard/visits/today");
      await card.getByRole("link").first().click();
      await expect(page.getByRole("heading", { level: 2, name: /Weekly Service/ })).toBeVisible();
      const visitUrl = new URL(page.url());
      const visitId = visitUrl.pathname.split("/").pop()!;
      if (js) await waitForHydration(page);

      // --- Before and after, health notes, completion -------------------------------------
      await page.getByLabel("Before Image/Video").setInputFiles(BEFORE_JPG);
      await page.getByRole("button", { name: "Upload Before" }).click();
      await expectToast(page, js, "Success", "before image uploaded successfully");
      await expect(page).toHaveURL(visitUrl.pathname);
      await expect(
        page.locator("[data-sonner-toast], [data-testid=flash-toast]").filter({ hasText: "Upload Failed" }),
      ).toHaveCount(0);
      await waitForToastsToClear(page, js);
      if (js) await waitForHydration(page);
      await page.getByLabel("After Image/Video").setInputFiles(AFTER_PNG);
      await page.getByRole("button", { name: "Upload After" }).click();
      await expectToast(page, js, "Success", "after image uploaded successfully");
      await expect(page).toHaveURL(visitUrl.pathname);
      await waitForToastsToClear(page, js);

      await page.getByLabel("Loose stool").check();
      await page.getByLabel("Health note").fill("Soft stool near the patio");
      await page.getByRole("button", { name: "Save health notes" }).click();
      await expectToast(page, js, "Success", "Health notes saved");
      await waitForToastsToClear(page, js);
      if (js) await expectNoAxeViolations(page, "on the visit page");

      await page.getByRole("button", { name: "Mark Completed" }).click();
      await expectToast(page, js, "Success", "Visit marked completed");
      await expect(page.getByText("completed", { exact: true }).first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Reopen" })).toBeVisible();
      await expect(page.getByText("Your Weekly Service visit is complete")).toBeVisible();
      await expect(
        page.getByRole("region", { name: "History" }).getByText(/Status scheduled → completed/),
      ).toBeVisible();

      // --- The completion e-mail, as the customer's mail server receives it ----------------
      const mail = await waitForMail(email, "Your Weekly Service visit is complete");
      const portalPath = `/customer-dashboard/visits/${visitId}`;
      const links = mailLinks(mail, "/customer-dashboard/visits/");
      expect(links.text.length + links.html.length).toBeGreaterThan(0);
      // The HTML part's link when there is one, else the text's; both must agree.
      const portalLink = links.html[0] ?? links.text[0];
      for (const link of [...links.text, ...links.html]) expect(link).toBe(portalLink);
      expect(new URL(portalLink).pathname).toBe(portalPath);
      expect(new URL(portalLink).origin).toBe(visitUrl.origin);
      expect(mail.text).toContain("Soft stool near the patio");
      // A JPEG copy of the after photo travels with it (never the original: docs/decisions/035),
      // shown inline by its Content-ID.
      const photo = mail.attachments.find((a) => a.cid === "after-photo");
      expect(photo, JSON.stringify(mail.attachments)).toBeDefined();
      expect(photo!.contentType).toBe("image/jpeg");
      expect(photo!.filename).toBe("after.jpg");
      expect(photo!.size).toBeGreaterThan(0);
      expect(photo!.size).toBeLessThanOrEqual(1024 * 1024);
      expect(photo!.sha256).not.toBe(createHash("sha256").update(AFTER_PNG.buffer).digest("hex"));
      expect(mail.html).toContain('src="cid:after-photo"');
      // Never the gate code (docs/decisions/032), in any part.
      expect(JSON.stringify(mail)).not.toContain(GATE_CODE);

      // --- Customers: server-side search, the customer's page with the masked gate code -----
      await waitForToastsToClear(page, js);
      await sections.getByRole("link", { name: "Customers" }).click();
      await expect(page.getByRole("heading", { name: "Customers", level: 2 })).toBeVisible();
      await page.getByLabel("Search by name or e-mail").fill(fullName.toUpperCase());
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]q=/);
      expect(await page.content()).not.toContain(GATE_CODE);
      if (js) await expectNoAxeViolations(page, "on Customers");
      await page.getByRole("link", { name: fullName }).click();
      await expect(page.getByRole("heading", { name: fullName, level: 2 })).toBeVisible();
      await expect(page.getByRole("link", { name: /Weekly Service/ })).toBeVisible();
      await expect(page.getByText(GATE_CODE, { exact: true })).toBeHidden();
      if (js) await expectNoAxeViolations(page, "on a customer's page");
      await logout(page);

      // --- The customer opens the e-mail's link ------------------------------------------
      // Signed out, the portal asks for a sign-in first and then brings the customer back to
      // the page the link named.
      await page.goto(portalLink);
      await expect(page).toHaveURL(`/auth?redirectTo=${encodeURIComponent(portalPath)}`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL(portalLink);
      await expect(page.getByRole("heading", { level: 1, name: /Weekly Service/ })).toBeVisible();
      await expect(page.getByText("Loose stool")).toBeVisible();
      await expect(page.getByText("Soft stool near the patio")).toBeVisible();
      await expect(page.getByText("Consider contacting your veterinarian.")).toBeVisible();
      const compare = page.getByRole("region", { name: "Before and after" });
      await expect(compare.getByRole("img", { name: /Your yard before/ })).toBeVisible();
      await expect(compare.getByRole("img", { name: /Your yard after/ })).toBeVisible();
      if (js) {
        await waitForHydration(page);
        const slider = compare.getByRole("slider", { name: "Compare before and after" });
        await expect(slider).toHaveValue("50");
        await slider.focus();
        await page.keyboard.press("End");
        await expect(slider).toHaveValue("100");
        await page.keyboard.press("Home");
        await expect(slider).toHaveValue("0");
        await page.keyboard.press("ArrowRight");
        await expect(slider).toHaveValue("1");
        await expectNoAxeViolations(page, "on the customer's visit");
      } else {
        await expect(compare.getByRole("slider")).toHaveCount(0);
      }
      await page.goto("/customer-dashboard/visits");
      await expect(page.getByRole("heading", { name: "Visit history", level: 1 })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on Visit history");
      await expect(page.getByRole("link", { name: "Weekly Service" })).toHaveAttribute(
        "href",
        `/customer-dashboard/visits/${visitId}`,
      );
      expect(pageErrors).toEqual([]);
    });
  });
}
