import { expect, test, type Page } from "@playwright/test";
import { totpCode } from "../helpers/totp";
import {
  DEV_ADMIN,
  DEV_CUSTOMER,
  enterTotpCode,
  expectNoAxeViolations,
  expectToast,
  mailLinks,
  signIn,
  signInAsAdmin,
  useClientAddress,
  waitForMail,
} from "./helpers";

// The account journeys people take alone: a forgotten password, and two-step sign-in. Their
// e-mails are read from the run's mail catcher (tests/e2e/global-setup.ts).
test.describe.configure({ mode: "serial" });

test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

const uniqueEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** The `path?token=` link of the newest e-mail to `to` with this subject. */
async function linkFromMail(to: string, subject: string, path: string): Promise<string> {
  const mail = await waitForMail(to, subject, { match: (m) => mailLinks(m, path).text.length > 0 });
  const link = mailLinks(mail, path).text[0];
  expect(new URL(link).searchParams.get("token")).toBeTruthy();
  return link;
}

async function signUp(page: Page, account: { fullName: string; email: string; password: string }) {
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill(account.fullName);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created successfully. You can now log in.").first()).toBeVisible();
}

for (const js of [true, false]) {
  test.describe(js ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("verify the e-mail address, then reset a forgotten password", async ({ page }) => {
      // Two e-mail journeys in one test: near the 60 s default on a loaded machine.
      test.slow();
      const account = {
        fullName: "Rosa Reset",
        email: uniqueEmail(js ? "reset-js" : "reset-nojs"),
        password: "first-pass",
      };
      await signUp(page, account);

      // Signed in but unverified: the dashboard asks for the link.
      await signIn(page, account.email, account.password);
      await expect(page.getByRole("heading", { name: "Please verify your e-mail address" })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the dashboard with the verify notice");
      await page.getByRole("button", { name: "Resend verification e-mail" }).click();
      await expectToast(page, js, "Verification e-mail sent");
      // The link only opens a page (a mail scanner's GET changes nothing); the button verifies.
      await page.goto(await linkFromMail(account.email, "Please verify your e-mail address", "/auth/verify-email"));
      await expect(page.getByRole("heading", { name: "Verify your e-mail", level: 1 })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the verify-e-mail page");
      await page.getByRole("button", { name: "Verify my e-mail" }).click();
      await expectToast(page, js, "Success", "Your e-mail address is verified.");
      await expect(page.getByRole("heading", { name: "Please verify your e-mail address" })).toHaveCount(0);
      await signOut(page);

      // Forgot password.
      await page.goto("/auth");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page).toHaveURL(/\/auth\/forgot-password$/);
      await expect(page.getByRole("heading", { name: "Reset your password", level: 1 })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the forgot-password page");
      await page.getByLabel("Email").fill(account.email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(
        page.getByText("If an account exists for that address, we've sent a link to reset the password."),
      ).toBeVisible();

      const link = await linkFromMail(account.email, "Reset your password", "/auth/reset-password");
      await page.goto(link);
      await expect(page.getByRole("heading", { name: "Choose a new password", level: 1 })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the reset page");
      await page.getByLabel("New password").fill("second-pass");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page).toHaveURL(/\/auth$/);
      await expectToast(page, js, "Success", "Your password has been changed. You can now log in.");

      // The old password is gone, the new one works, and the link is spent.
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expectToast(page, js, "Login failed");
      await signIn(page, account.email, "second-pass");
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await page.goto(link);
      await expect(page.getByText("This link has expired. Request a new one.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Request a new link" })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on an expired reset link");
    });

    test("an account enrols two-step, sees recovery codes once, and signs in with a code", async ({ page }) => {
      const account = {
        fullName: "Tess Totp",
        email: uniqueEmail(js ? "totp-js" : "totp-nojs"),
        password: "totp-pass",
      };
      await signUp(page, account);
      await signIn(page, account.email, account.password);
      await page.goto("/account/security");
      await expect(page.getByRole("heading", { name: "Two-step verification", level: 1 })).toBeVisible();
      // The key is made by the button, for this session only.
      await expect(page.getByRole("img", { name: /QR code/ })).toHaveCount(0);
      await page.getByRole("button", { name: "Set up two-step" }).click();
      await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
      const secret = (await page.locator("p", { hasText: "Setup key" }).locator("code").textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]+$/);
      if (js) await expectNoAxeViolations(page, "on the enrolment page");
      await page.getByLabel("Verification code").fill("000000");
      await page.getByRole("button", { name: "Turn on" }).click();
      await expect(page.getByText("That code is not right. Please try again.")).toBeVisible();
      await page.getByLabel("Verification code").fill(totpCode(secret));
      await page.getByRole("button", { name: "Turn on" }).click();
      const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      await expect(codes).toHaveCount(10);
      const recovery = (await codes.first().textContent())!.trim();
      if (js) await expectNoAxeViolations(page, "with the recovery codes");
      await page.getByRole("link", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await signOut(page);

      // Password, then the code: no session before it.
      await page.goto("/auth");
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL(/\/auth\/verify$/);
      await expect(page.getByRole("heading", { name: "Two-step verification", level: 1 })).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the verify page");
      // The page asked for is remembered through both steps (decision 023).
      await page.goto("/customer-dashboard");
      await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcustomer-dashboard$/);
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL(/\/auth\/verify\?redirectTo=%2Fcustomer-dashboard$/);
      await enterTotpCode(page, secret);
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await signOut(page);

      // A recovery code works once.
      await signInWithRecovery(page, account, recovery);
      await expect(page).toHaveURL(/\/customer-dashboard$/);
    });

    test("the development admin signs in with password and code and reaches the admin dashboard", async ({ page }) => {
      await signIn(page, DEV_ADMIN.email, DEV_ADMIN.password);
      await expect(page).toHaveURL(/\/admin-dashboard$/);
      await page.goto("/account/security");
      await expect(page.getByText("Two-step verification is on.")).toBeVisible();
      if (js) await expectNoAxeViolations(page, "on the security page with two-step on");
    });
  });
}

/** The dashboard's own "Logout" button (the header's may sit under a toast without JavaScript). */
async function signOut(page: Page) {
  await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function signInWithRecovery(page: Page, account: { email: string; password: string }, code: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/verify$/);
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await page.waitForURL((url) => url.pathname !== "/auth/verify");
}

test.describe("cross-site posts", () => {
  const EVIL = { Origin: "https://evil.example" };

  test("are refused with 403 as documents and as ?_data requests, before Remix, writing nothing", async ({
    page,
    request,
  }) => {
    // Sign-in (login CSRF): no session cookie comes back.
    for (const path of ["/auth", "/auth?_data=routes%2Fauth"]) {
      const response = await request.post(path, {
        headers: EVIL,
        form: { intent: "signin", email: DEV_CUSTOMER.email, password: DEV_CUSTOMER.password },
      });
      expect(response.status(), path).toBe(403);
      expect(await response.text()).toContain("Request refused");
      expect(response.headers()["set-cookie"] ?? "").not.toContain("__session");
    }

    // Sign-out and an admin action, with a real admin session in the browser.
    await signInAsAdmin(page);
    const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    for (const path of ["/logout", "/logout?_data=routes%2Flogout"]) {
      const response = await request.post(path, { headers: { ...EVIL, Cookie: cookies }, form: {} });
      expect(response.status(), path).toBe(403);
    }
    // The customer's id, as the Create Service picker's search finds it (decision 064).
    const search = await page.request.get(`/resources/customer-search?q=${encodeURIComponent(DEV_CUSTOMER.email)}`);
    const { customers } = (await search.json()) as { customers: { id: string; label: string }[] };
    const customerId = customers.find((option) => option.label.includes(DEV_CUSTOMER.email))?.id;
    expect(customerId).toBeTruthy();
    const notes = `cross-site-${Date.now()}`;
    for (const path of [
      "/admin-dashboard?index&tab=create",
      "/admin-dashboard?index&tab=create&_data=routes%2Fadmin-dashboard._index",
    ]) {
      const response = await request.post(path, {
        headers: { Origin: "null", Cookie: cookies },
        form: { customerId: customerId!, serviceType: "Desert Dash", serviceDate: "2025-05-01T09:00", notes },
      });
      expect(response.status(), path).toBe(403);
    }
    // The cross-site sign-outs did nothing: the admin is still signed in.
    await page.goto("/admin-dashboard");
    await expect(page).toHaveURL(/\/admin-dashboard$/);
  });
});
