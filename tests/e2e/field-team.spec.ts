import { expect, test } from "@playwright/test";
import { DEV_ADMIN_TOTP_SECRET } from "../helpers/totp";
import {
  expectNoAxeViolations,
  expectNoFailures,
  isolateBrowser,
  signIn,
  signInAsAdmin,
  watchForFailures,
} from "./helpers";

/**
 * Issue 36 (decision 128), on a phone with JavaScript on: the seeded technician sees only the
 * visits assigned to them, is refused another's visit by URL, and reads a gate code only after
 * "Show gate code" on their own visit of today. (The invitation → set password → two-step part
 * of the journey is covered by tests/portal/staff-page.test.ts at the route level.)
 */
test.use({ viewport: { width: 390, height: 844 } });

const TECHNICIAN = { email: "technician@example.com", password: "technician-password" };
const MORGANS_GATE_CODE = "4821#";

test("the technician's own visits, a refused visit, and a logged gate-code press", async ({ page, browser }) => {
  // The owner's Today names a visit that is not the technician's (Riley's, seeded unassigned).
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await isolateBrowser(owner, ownerContext);
  await signInAsAdmin(owner);
  await owner.goto("/admin-dashboard/visits/today");
  const rileysHref = await owner
    .getByRole("listitem")
    .filter({ hasText: "Riley Ridge" })
    .getByRole("link", { name: /Open visit/ })
    .getAttribute("href");
  expect(rileysHref).toMatch(/^\/admin-dashboard\/visits\/[0-9a-f-]{36}$/);

  await isolateBrowser(page);
  const failures = watchForFailures(page);
  await signIn(page, TECHNICIAN.email, TECHNICIAN.password, { totpSecret: DEV_ADMIN_TOTP_SECRET });
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/today$/);
  const nav = page.getByRole("navigation", { name: "Admin sections" });
  await expect(nav.getByRole("link")).toHaveText(["Today", "My visits"]);
  await expect(page.getByText("Morgan Mesa").first()).toBeVisible();
  await expect(page.getByText("Riley Ridge")).toHaveCount(0);
  expect(await page.content()).not.toContain(MORGANS_GATE_CODE);
  await expectNoAxeViolations(page, "on the technician's Today");

  await nav.getByRole("link", { name: "My visits" }).click();
  await expect(page.getByRole("heading", { name: "My visits", level: 2 })).toBeVisible();
  await expect(page.getByText("Riley Ridge")).toHaveCount(0);
  await expectNoAxeViolations(page, "on My visits");

  // Another's visit by URL: back to Today with "Access Denied".
  await page.goto(rileysHref!);
  await expect(page).toHaveURL(/\/admin-dashboard\/visits\/today$/);
  await expect(page.getByText("Your staff role does not allow this.")).toBeVisible();

  // Their own visit of today: no code in the page until the press.
  await page
    .getByRole("listitem")
    .filter({ hasText: "Morgan Mesa" })
    .getByRole("link", { name: /Open visit/ })
    .click();
  await expect(page.getByRole("button", { name: "Show gate code" })).toBeVisible();
  expect(await page.content()).not.toContain(MORGANS_GATE_CODE);
  await expect(page.getByRole("link", { name: "Morgan Mesa" })).toHaveCount(0);
  await expectNoAxeViolations(page, "on the technician's visit page");
  await page.getByRole("button", { name: "Show gate code" }).click();
  await expect(page.getByRole("status").filter({ hasText: MORGANS_GATE_CODE })).toBeVisible();
  await expectNoAxeViolations(page, "with the gate code shown");
  await page.getByRole("link", { name: "My visits" }).first().click();
  await expect(page.getByRole("heading", { name: "My visits", level: 2 })).toBeVisible();
  await expectNoFailures(page, failures, "through the technician's journey");

  // The owner reads the press on Morgan's page.
  await owner.goto("/admin-dashboard/visits/today");
  await owner
    .getByRole("listitem")
    .filter({ hasText: "Morgan Mesa" })
    .getByRole("link", { name: /Open visit/ })
    .click();
  await owner.getByRole("link", { name: "Morgan Mesa" }).click();
  await expect(owner).toHaveURL(/\/admin-dashboard\/customers\/[0-9a-f-]{36}$/);
  const log = owner.getByRole("region", { name: "Gate code views" });
  await expect(log.getByRole("row").filter({ hasText: "Terry Technician" }).first()).toBeVisible();
  await expectNoAxeViolations(owner, "on the customer's page with its gate code views");
  await ownerContext.close();
});
