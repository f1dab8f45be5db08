import { expect, test, type Page } from "@playwright/test";
import {
  busyClicks,
  enterTotpCode,
  expectNoAxeViolations,
  expectToast,
  mailLinks,
  nextClientAddress,
  pickTestAdmin,
  useClientAddress,
  waitForHydration,
  waitForMail,
} from "./helpers";

// The public account pages ship no React (decisions 066, 068): their forms post as documents
// and one plain browser script, auth-forms.browser.ts, checks them with the schemas the actions
// parse. These tests run with JavaScript (accounts.spec.ts and account-security.spec.ts run the
// journeys with and without it).

test.use({ viewport: { width: 1280, height: 900 } });

let clientAddress = "";
test.beforeEach(async ({ page }) => {
  clientAddress = await useClientAddress(page);
});

const uniqueEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

// The forms' script, and the toast's on a page with a toast (decision 075).
const BROWSER_SCRIPT = /^\/build\/browser\/(auth-forms|static-toast|accessibility-panel)-[A-Za-z0-9]+\.js$/;

/** The scripts a page asks for, its posts, and its console errors (CSP violations among them). */
function watch(page: Page) {
  const seen = { scripts: [] as string[], posts: [] as string[], errors: [] as string[] };
  page.on("request", (request) => {
    if (request.resourceType() === "script") seen.scripts.push(new URL(request.url()).pathname);
    if (request.method() === "POST") seen.posts.push(new URL(request.url()).pathname);
  });
  page.on("console", (message) => {
    // A refused post is answered 400/401/429 with the form again: Chromium notes the status.
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
    if (message.type() === "error" || /Content.Security.Policy/i.test(message.text()))
      seen.errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.errors.push(`${page.url()}: ${error.message}`));
  return seen;
}

/** Once the page's script has taken over the form. */
async function enhanced(page: Page, formId: string) {
  await expect(page.locator(`form#${formId}`)).toHaveAttribute("data-enhanced", "true");
}

/** Only the account pages' script, no Remix context, no module preloads. */
async function expectNoFramework(page: Page, scripts: string[]) {
  expect(scripts.length, scripts.join(", ")).toBeGreaterThan(0);
  for (const script of scripts) expect(script).toMatch(BROWSER_SCRIPT);
  const html = await page.content();
  expect(html).not.toContain("__remixContext");
  expect(html).not.toContain('rel="modulepreload"');
}

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The messages the server renders for these values, as a post without JavaScript gets them:
 * the text of each `#<id>` element of its answer.
 */
async function serverMessages(page: Page, path: string, form: Record<string, string>, ids: string[]) {
  const response = await page.request.post(path, {
    form,
    headers: { "X-Forwarded-For": nextClientAddress() },
    maxRedirects: 0,
  });
  expect(response.status(), `${path} refuses ${JSON.stringify(form)}`).toBe(400);
  const html = await response.text();
  return Object.fromEntries(
    ids.map((id) => {
      const match = new RegExp(`<p[^>]*\\bid="${id}"[^>]*>([^<]*)</p>`).exec(html);
      return [id, decode(match?.[1] ?? "")];
    }),
  );
}

test.describe("/auth without React", () => {
  test("loads only its browser script, with no console error or CSP violation", async ({ page }) => {
    const seen = watch(page);
    for (const [path, formId] of [
      ["/auth", "signin"],
      ["/auth?tab=signup", "signup"],
      ["/auth/forgot-password", "forgot-password"],
    ] as const) {
      seen.scripts.length = 0;
      await page.goto(path);
      await waitForHydration(page); // a static page says it is live from the start
      await enhanced(page, formId);
      await expectNoFramework(page, seen.scripts);
      // The form's script and the accessibility panel's (decision 074).
      expect(seen.scripts).toHaveLength(2);
    }
    expect(seen.errors).toEqual([]);
  });

  test("checks a field when it is left, with the server's own message, and clears it once corrected", async ({
    page,
  }) => {
    const seen = watch(page);
    const bad = { fullName: "", email: "short@example", password: "12345" };
    const server = await serverMessages(page, "/auth?tab=signup", { intent: "signup", ...bad }, [
      "signup-fullName-error",
      "signup-email-error",
      "signup-password-error",
    ]);
    expect(server).toEqual({
      "signup-fullName-error": "Full name is required",
      "signup-email-error": "Enter a valid email address",
      "signup-password-error": "Password must be at least 6 characters",
    });

    await page.goto("/auth?tab=signup");
    await enhanced(page, "signup");
    const fullName = page.getByLabel("Full Name");
    const email = page.getByLabel("Email");
    const password = page.getByLabel("Password");

    // Nothing is said before a field has been left.
    await email.fill(bad.email);
    await expect(page.locator("#signup-email-error")).toHaveText("");
    await expect(email).not.toHaveAttribute("aria-invalid");

    await fullName.focus();
    await fullName.blur();
    await email.focus();
    await email.blur();
    await password.fill(bad.password);
    await password.blur();
    for (const [field, id] of [
      [fullName, "signup-fullName-error"],
      [email, "signup-email-error"],
      [password, "signup-password-error"],
    ] as const) {
      await expect(page.locator(`#${id}`)).toHaveText(server[id]);
      await expect(field).toHaveAttribute("aria-invalid", "true");
    }
    await expect(email).toHaveAttribute("aria-describedby", "signup-email-error");
    await expect(password).toHaveAttribute("aria-describedby", "signup-password-error signup-password-hint");
    await expect(email).toHaveAccessibleDescription(server["signup-email-error"]);

    // A checked field follows every keystroke: corrected, its message goes.
    await email.fill("short@example.com");
    await expect(page.locator("#signup-email-error")).toHaveText("");
    await expect(email).not.toHaveAttribute("aria-invalid");
    await expect(email).not.toHaveAttribute("aria-describedby");
    await password.fill("123456");
    await expect(page.locator("#signup-password-error")).toHaveText("");
    await expect(password).toHaveAttribute("aria-describedby", "signup-password-hint");
    await expect(password).not.toHaveAttribute("aria-invalid");
    await password.fill("1234");
    await expect(page.locator("#signup-password-error")).toHaveText(server["signup-password-error"]);

    // Sign In's messages are the server's too.
    const signInServer = await serverMessages(page, "/auth", { intent: "signin", email: "", password: "x" }, [
      "signin-email-error",
    ]);
    expect(signInServer["signin-email-error"]).toBe("Email is required");
    await page.goto("/auth");
    await enhanced(page, "signin");
    await page.getByLabel("Email").focus();
    await page.getByLabel("Email").blur();
    await expect(page.locator("#signin-email-error")).toHaveText(signInServer["signin-email-error"]);
    expect(seen.posts).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  test("a submit with errors stays, focuses the first invalid field and posts nothing", async ({ page }) => {
    const seen = watch(page);
    const account = { fullName: "Nina Nopost", email: uniqueEmail("nopost"), password: "nopost-pass" };
    await page.goto("/auth?tab=signup");
    await enhanced(page, "signup");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill("12345");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("Full Name")).toBeFocused();
    await expect(page.locator("#signup-fullName-error")).toHaveText("Full name is required");
    await expect(page.locator("#signup-password-error")).toHaveText("Password must be at least 6 characters");
    await expect(page.locator("#signup-email-error")).toHaveText("");
    await expect(page.getByRole("button", { name: "Create Account" })).toBeEnabled();
    expect(seen.posts).toEqual([]);
    await expect(page).toHaveURL(/\/auth\?tab=signup$/);

    // Nothing was stored: signing in with that address fails.
    const signIn = await page.request.post("/auth", {
      form: { intent: "signin", email: account.email, password: "12345" },
      headers: { "X-Forwarded-For": nextClientAddress() },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(401);

    // Corrected, the same form posts once and creates the account.
    await page.getByLabel("Full Name").fill(account.fullName);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expectToast(page, true, "Success!", "Account created successfully. You can now log in.");
    expect(seen.posts).toEqual(["/auth"]);
    expect(seen.errors).toEqual([]);
  });

  test("a busy form shows its busy label and sends a second click nowhere", async ({ page }) => {
    const seen = watch(page);
    // The post waits until the busy button has been looked at.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/auth",
      async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      },
    );
    await page.goto("/auth");
    await enhanced(page, "signin");
    await page.getByLabel("Email").fill("nobody-busy@example.com");
    await page.getByLabel("Password").fill("wrong-password");
    // Playwright waits for a pending navigation before it reads the page, so the page reports
    // the button as the first click left it, and what a second click did.
    const after = await busyClicks(page, "signin");
    expect(after).toEqual({ label: "Signing in...", ariaDisabled: "true", secondClickPrevented: true });
    release();
    await expect(page.locator("#signin-error")).toHaveText("Invalid email or password.");
    await expectToast(page, true, "Login failed", "Invalid email or password.");
    expect(seen.posts).toEqual(["/auth"]);
    // The answer is a fresh page: its button is ready again.
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeEnabled();
    expect(seen.errors).toEqual([]);
  });

  for (const theme of ["light", "dark"] as const) {
    test(`axe finds nothing with the script's messages shown (${theme})`, async ({ page }) => {
      for (const [path, formId, submit] of [
        ["/auth?tab=signup", "signup", "Create Account"],
        ["/auth", "signin", "Sign In"],
        ["/auth/forgot-password", "forgot-password", "Send reset link"],
      ] as const) {
        await page.goto(path);
        await enhanced(page, formId);
        if (theme === "dark") await page.evaluate(() => document.documentElement.classList.add("dark"));
        await page.getByRole("button", { name: submit, exact: true }).click();
        await expect(page.locator(`form#${formId} [aria-invalid=true]`).first()).toBeFocused();
        await expectNoAxeViolations(page, `on ${path} with errors (${theme})`);
      }
    });
  }

  test("after sign-up the page stays static with its toast, and the script still checks the form", async ({ page }) => {
    const seen = watch(page);
    await page.goto("/auth?tab=signup");
    await enhanced(page, "signup");
    await page.getByLabel("Full Name").fill("Hana Static");
    await page.getByLabel("Email").fill(uniqueEmail("static-toast"));
    await page.getByLabel("Password").fill("static-pass");
    seen.scripts.length = 0;
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    // The flash toast is the server's live region (decision 075): no React, the toast's script.
    await expect(page.getByTestId("flash-toast")).toContainText("Account created successfully.");
    await expect(page.getByRole("button", { name: "Close notification" })).toBeVisible();
    await expectNoFramework(page, seen.scripts);
    expect(seen.scripts.some((script) => script.startsWith("/build/browser/static-toast-"))).toBe(true);
    await enhanced(page, "signin");
    const email = page.getByLabel("Email");
    await email.fill("not-an-address");
    await email.blur();
    await expect(page.locator("#signin-email-error")).toHaveText("Enter a valid email address");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await email.fill("someone@example.com");
    await expect(page.locator("#signin-email-error")).toHaveText("");
    // The tabs are plain links: Sign Up is a fresh static page with its script.
    seen.scripts.length = 0;
    await page.getByRole("navigation", { name: "Sign in or sign up" }).getByRole("link", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(/\/auth\?tab=signup$/);
    await enhanced(page, "signup");
    await expectNoFramework(page, seen.scripts);
    expect(seen.errors).toEqual([]);
  });
});

test.describe("the other account pages without React", () => {
  test("forgot and reset password: checked as typed, the server's messages, then the journey", async ({ page }) => {
    const seen = watch(page);
    const account = { fullName: "Rita Script", email: uniqueEmail("reset-script"), password: "first-pass" };
    const created = await page.request.post("/auth?tab=signup", {
      form: { intent: "signup", ...account },
      headers: { "X-Forwarded-For": clientAddress },
      maxRedirects: 0,
    });
    expect(created.status()).toBe(302);

    const server = await serverMessages(page, "/auth/forgot-password", { email: "nobody@" }, ["email-error"]);
    expect(server["email-error"]).toBe("Enter a valid email address");
    await page.goto("/auth/forgot-password");
    await enhanced(page, "forgot-password");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByLabel("Email")).toBeFocused();
    await expect(page.locator("#email-error")).toHaveText("Email is required");
    await page.getByLabel("Email").fill("nobody@");
    await expect(page.locator("#email-error")).toHaveText(server["email-error"]);
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-describedby", "email-error");
    expect(seen.posts).toEqual([]);
    await page.getByLabel("Email").fill(account.email);
    await expect(page.locator("#email-error")).toBeHidden();
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(
      page.getByText("If an account exists for that address, we've sent a link to reset the password."),
    ).toBeVisible();

    const mail = await waitForMail(account.email, "Reset your password", {
      match: (m) => mailLinks(m, "/auth/reset-password").text.length > 0,
    });
    seen.scripts.length = 0;
    await page.goto(mailLinks(mail, "/auth/reset-password").text[0]);
    await enhanced(page, "reset-password");
    await expectNoFramework(page, seen.scripts);
    const password = page.getByLabel("New password");
    await password.fill("123");
    await password.blur();
    await expect(page.locator("#password-error")).toHaveText("Password must be at least 6 characters");
    await expect(password).toHaveAttribute("aria-describedby", "password-error password-hint");
    await expectNoAxeViolations(page, "on the reset page with the script's message");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(password).toBeFocused();
    expect(seen.posts).toEqual(["/auth/forgot-password"]);
    await password.fill("second-pass");
    await expect(page.locator("#password-error")).toBeHidden();
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expectToast(page, true, "Success", "Your password has been changed. You can now log in.");
    expect(seen.errors).toEqual([]);
  });

  test("two-step sign-in: the code page asks for a code before posting, then signs in", async ({ page }) => {
    const seen = watch(page);
    const admin = pickTestAdmin();
    await page.goto("/auth");
    await enhanced(page, "signin");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/auth\/verify$/);
    seen.scripts.length = 0;
    await page.reload();
    await enhanced(page, "two-step");
    await expectNoFramework(page, seen.scripts);
    seen.posts.length = 0;
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByLabel("Verification code")).toBeFocused();
    await expect(page.locator("#code-error")).toHaveText("Enter the code from your authenticator app.");
    await expect(page.getByLabel("Verification code")).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "on the code page with the script's message");
    expect(seen.posts).toEqual([]);
    await enterTotpCode(page, admin.totpSecret);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    expect(seen.errors).toEqual([]);
  });
});
