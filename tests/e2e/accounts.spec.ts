import { expect, test, type Page } from "@playwright/test";
import {
  busyClicks,
  DEV_CUSTOMER,
  expectNoAxeViolations,
  expectToast,
  signIn,
  signInAsAdmin,
  useClientAddress,
  waitForHydration,
} from "./helpers";

// Each test comes from its own client address, so the per-client sign-in and sign-up limits
// of one test never meet another's.
test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

const uniqueEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function signUp(page: Page, fields: { fullName: string; email: string; password: string }) {
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill(fields.fullName);
  await page.getByLabel("Email").fill(fields.email);
  await page.getByLabel("Password").fill(fields.password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

for (const js of [true, false]) {
  test.describe(js ? "accounts with JavaScript" : "accounts without JavaScript", () => {
    test.use({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });

    test("sign up, sign in, land on the dashboard, sign out", async ({ page }) => {
      const account = { fullName: "Pat Tester", email: uniqueEmail(js ? "js" : "nojs"), password: "pat-password" };
      await signUp(page, account);
      await expect(page).toHaveURL(/\/auth$/);
      await expectToast(page, js, "Success!", "Account created successfully. You can now log in.");
      const tabs = page.getByRole("navigation", { name: "Sign in or sign up" });
      await expect(tabs.getByRole("link", { name: "Sign In" })).toHaveAttribute("aria-current", "page");

      await page.getByLabel("Email").fill(`  ${account.email.toUpperCase()} `);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page).toHaveURL(/\/customer-dashboard$/);
      await expectToast(page, js, "Welcome back!", "You've been logged in successfully.");

      // A live session never sees the form again.
      await page.goto("/auth");
      await expect(page).toHaveURL(/\/customer-dashboard$/);

      await mainNav(page).getByRole("button", { name: "Sign Out" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expectToast(page, js, "Signed out", "You've been logged out successfully.");
      await expect(mainNav(page).getByRole("link", { name: "Sign In" })).toBeVisible();
      await page.goto("/auth");
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole("heading", { name: "Customer Portal" })).toBeVisible();
    });

    test("an admin lands on the admin dashboard, also when opening /auth again", async ({ page }) => {
      await signInAsAdmin(page);
      await expect(page).toHaveURL(/\/admin-dashboard$/);
      await expectToast(page, js, "Welcome back!", "You've been logged in successfully.");
      await page.goto("/auth?tab=signup");
      await expect(page).toHaveURL(/\/admin-dashboard$/);
    });

    test("a customer lands on the customer dashboard", async ({ page }) => {
      await signIn(page, DEV_CUSTOMER.email, DEV_CUSTOMER.password);
      await expect(page).toHaveURL(/\/customer-dashboard$/);
    });

    test("a wrong password says 'Login failed' and keeps the e-mail", async ({ page }) => {
      const account = { fullName: "Wanda Wrong", email: uniqueEmail("wrong"), password: "right-password" };
      await signUp(page, account);
      await expect(page).toHaveURL(/\/auth$/);
      if (js) await waitForHydration(page);
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expectToast(page, js, "Login failed", "Invalid email or password.");
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByLabel("Email")).toHaveValue(account.email);
      // The form posts as a document with JavaScript too (decision 068): the password never
      // travels back in the page.
      await expect(page.getByLabel("Password")).toHaveValue("");
      await expect(page.locator("#signin-error")).toHaveText("Invalid email or password.");
    });

    test("a taken address says 'Sign up failed' and keeps the name", async ({ page }) => {
      const email = uniqueEmail("taken");
      await signUp(page, { fullName: "First Owner", email, password: "first-password" });
      await expect(page).toHaveURL(/\/auth$/);
      await signUp(page, { fullName: "Second Try", email: email.toUpperCase(), password: "second-password" });
      await expectToast(page, js, "Sign up failed", "We could not create an account with this email.");
      await expect(page).toHaveURL(/\/auth\?tab=signup$/);
      await expect(page.getByLabel("Full Name")).toHaveValue("Second Try");
      await expect(page.getByLabel("Password")).toHaveValue("");
    });

    test("Google and Facebook explain that they are not set up", async ({ page }) => {
      for (const [tab, provider] of [
        ["signin", "Google"],
        ["signup", "Facebook"],
      ] as const) {
        await page.goto(tab === "signup" ? "/auth?tab=signup" : "/auth");
        if (js) await waitForHydration(page);
        await page.getByRole("button", { name: `Sign in with ${provider}` }).click();
        await expect(page).toHaveURL(/\/auth$/);
        await expectToast(
          page,
          js,
          `${provider} sign in failed`,
          `${provider} sign-in is not set up yet. Please use e-mail.`,
        );
      }
    });

    test("the tabs are links: Sign Up by URL and back to Sign In", async ({ page }) => {
      await page.goto("/auth");
      const tabs = page.getByRole("navigation", { name: "Sign in or sign up" });
      await expect(tabs.getByRole("link", { name: "Sign In" })).toHaveAttribute("aria-current", "page");
      for (const text of ["Email", "Password"]) await expect(page.getByLabel(text)).toBeVisible();
      await expect(page.getByText("this section is still being worked on")).toBeVisible();
      if (js) await waitForHydration(page);
      await tabs.getByRole("link", { name: "Sign Up" }).click();
      await expect(page).toHaveURL(/\/auth\?tab=signup$/);
      await expect(tabs.getByRole("link", { name: "Sign Up" })).toHaveAttribute("aria-current", "page");
      await expect(page.getByLabel("Full Name")).toBeVisible();
      await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign in with Google" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign in with Facebook" })).toBeVisible();
      await expect(page.getByText("this section is still being worked on")).toBeVisible();
      await tabs.getByRole("link", { name: "Sign In" }).click();
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
    });
  });
}

test.describe("busy buttons", () => {
  /**
   * Holds the form's post (a document request: the page ships no React, decision 068) until
   * `release()`, so the busy label can be seen.
   */
  async function holdPosts(page: Page) {
    // Each release lets one post through, whether it comes before or after the post arrives.
    let permits = 0;
    const waiting: (() => void)[] = [];
    await page.route(
      (url) => url.pathname === "/auth",
      async (route) => {
        if (route.request().method() === "POST") {
          if (permits > 0) permits--;
          else await new Promise<void>((resolve) => waiting.push(resolve));
        }
        await route.continue();
      },
    );
    return () => {
      const next = waiting.shift();
      if (next) next();
      else permits++;
    };
  }

  test("read 'Signing in...' and 'Creating account...' while the form is busy", async ({ page }) => {
    const release = await holdPosts(page);
    await page.goto("/auth");
    await waitForHydration(page);
    await expect(page.locator("form#signin")).toHaveAttribute("data-enhanced", "true");
    await page.getByLabel("Email").fill(DEV_CUSTOMER.email);
    await page.getByLabel("Password").fill(DEV_CUSTOMER.password);
    expect(await busyClicks(page, "signin")).toMatchObject({ label: "Signing in...", ariaDisabled: "true" });
    release();
    await expect(page).toHaveURL(/\/customer-dashboard$/);
    await mainNav(page).getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/auth?tab=signup");
    await waitForHydration(page);
    await expect(page.locator("form#signup")).toHaveAttribute("data-enhanced", "true");
    await page.getByLabel("Full Name").fill("Busy Bee");
    await page.getByLabel("Email").fill(uniqueEmail("busy"));
    await page.getByLabel("Password").fill("busy-password");
    expect(await busyClicks(page, "signup")).toMatchObject({ label: "Creating account...", ariaDisabled: "true" });
    release();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("errors appear next to the fields before anything is sent", async ({ page }) => {
    await page.goto("/auth?tab=signup");
    await waitForHydration(page);
    await page.getByLabel("Full Name").fill("Short Pass");
    await page.getByLabel("Email").fill("short@example");
    await page.getByLabel("Password").fill("12345");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#signup-password-error")).toHaveText("Password must be at least 6 characters");
    await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  });
});

test.describe("accessibility of /auth", () => {
  for (const theme of ["light", "dark"] as const) {
    test(`axe finds nothing on either tab (${theme})`, async ({ page }) => {
      for (const path of ["/auth", "/auth?tab=signup"]) {
        await page.goto(path);
        if (theme === "dark") await page.evaluate(() => document.documentElement.classList.add("dark"));
        await expectNoAxeViolations(page, `on ${path} (${theme})`);
      }
      // With errors shown next to the fields and under the form:
      await page.goto("/auth");
      await waitForHydration(page);
      if (theme === "dark") await page.evaluate(() => document.documentElement.classList.add("dark"));
      await page.getByLabel("Email").fill("nobody@example.com");
      await page.getByLabel("Password").fill("wrong-password");
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await expect(page.locator("#signin-error")).toHaveText("Invalid email or password.");
      await expectToast(page, true, "Login failed", "Invalid email or password.");
      await expectNoAxeViolations(page, `on /auth with errors (${theme})`);
    });
  }
});
