import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import type { CaughtMail } from "../helpers/mail-catcher";
import { DEV_ADMIN_TOTP_SECRET, totpForStep, totpStep } from "../helpers/totp";
import { testAdmin, TEST_ADMIN_SLOTS, TEST_ADMINS_PER_SLOT, type TestAdmin } from "./test-admins";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
};

/**
 * Runs axe (WCAG 2.0/2.1/2.2 A and AA plus best practices) in the page and fails with a
 * readable list of violations. Injected through the DevTools protocol, so the page's CSP
 * stays as strict as in production.
 */
export async function expectNoAxeViolations(page: Page, context = "") {
  // A theme switched just before (a class on <html>) fades colours in over ~150 ms; axe must
  // see the settled colours, not a frame of the transition.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"), null, { timeout: 3_000 })
    .catch(() => {
      // An endless animation (a spinner) never settles; check the page as it is.
    });
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations as AxeViolation[];
  });
  const summary = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(" ")} — ${n.failureSummary ?? ""}`)
        .join("\n    ")}`,
  );
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/** Waits until React has hydrated the page (Remix sets window.__remixContext, and the router). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

export const DEV_ADMIN = { email: "admin@example.com", password: "admin-password" };
export const DEV_CUSTOMER = { email: "customer@example.com", password: "customer-password" };

/**
 * Signs in through the /auth form (works with JavaScript on or off) and waits until the
 * browser has left /auth for the person's portal. An account with two-step sign-in (the
 * development admin has it, with the published DEV_ADMIN_TOTP_SECRET) gets its code typed in
 * on /auth/verify, as a person with the authenticator app would.
 */
export async function signIn(page: Page, email: string, password: string, options: { totpSecret?: string } = {}) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/auth");
  if (new URL(page.url()).pathname === "/auth/verify") {
    const secret = options.totpSecret ?? (email === DEV_ADMIN.email ? DEV_ADMIN_TOTP_SECRET : undefined);
    if (!secret) throw new Error(`${email} has two-step on: pass its totpSecret`);
    await enterTotpCode(page, secret);
  }
}

// The last TOTP step this worker used, per secret: the server accepts each step once per
// account (and one step of drift), so the next sign-in takes a later step instead of sending a
// code that would be refused.
const usedSteps = new Map<string, number>();

/**
 * Types a code on /auth/verify and waits until the browser leaves it. The code is the current
 * step's, or the next step's when this worker already used the current one (the server accepts
 * one step of drift); past that it waits for the step's time. A code refused all the same
 * (another worker, or this slot's previous worker after a restart, used that step) is followed
 * by the next step's.
 */
export async function enterTotpCode(page: Page, secret: string) {
  for (let attempt = 0; attempt < 4; attempt++) {
    const step = Math.max(totpStep(), (usedSteps.get(secret) ?? 0) + 1);
    // A step is accepted from the start of the one before it.
    const acceptedFrom = (step - 1) * 30_000;
    if (Date.now() < acceptedFrom) await page.waitForTimeout(acceptedFrom - Date.now() + 200);
    usedSteps.set(secret, step);
    await page.getByLabel("Verification code").fill(totpForStep(secret, step));
    const answer = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/auth/verify",
    );
    await page.getByRole("button", { name: "Verify" }).click();
    if ((await answer).status() !== 400) break;
  }
  await page.waitForURL((url) => url.pathname !== "/auth/verify");
}

/**
 * One of this worker's own admin accounts (tests/e2e/test-admins.ts): the one it used least
 * recently, so that its TOTP steps are never another worker's and rarely its own last one.
 */
export function pickTestAdmin(): TestAdmin {
  const { parallelIndex, workerIndex } = test.info();
  const slot = parallelIndex % TEST_ADMIN_SLOTS;
  // A worker restarted after a failure keeps the slot but not usedSteps: start from another account.
  const admins = Array.from({ length: TEST_ADMINS_PER_SLOT }, (_, i) =>
    testAdmin(slot, (workerIndex + i) % TEST_ADMINS_PER_SLOT),
  );
  const lastUsed = (admin: TestAdmin) => usedSteps.get(admin.totpSecret) ?? -1;
  return admins.reduce((best, admin) => (lastUsed(admin) < lastUsed(best) ? admin : best));
}

/** Signs in as one of this worker's admins (password and TOTP code) and returns the account. */
export async function signInAsAdmin(page: Page): Promise<TestAdmin> {
  const admin = pickTestAdmin();
  await signIn(page, admin.email, admin.password, { totpSecret: admin.totpSecret });
  return admin;
}

// Test addresses come from 198.18.0.0/15 (RFC 2544, benchmarking): 128 workers × 1024 each.
let clientCounter = 0;

/**
 * A client address no other test of this run uses. The server reads X-Forwarded-For
 * (TRUST_PROXY=1) and limits sign-ins and sign-ups per client and per (client, e-mail) pair
 * (docs/decisions/020), so tests sharing an address would meet each other's limits. The
 * counter lives in this module, shared by every spec file a worker runs.
 */
export function nextClientAddress(): string {
  clientCounter = (clientCounter % 1023) + 1;
  const n = (test.info().workerIndex % 128) * 1024 + clientCounter;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/** Gives the page (its browser context's requests) a client address of its own. */
export async function useClientAddress(page: Page): Promise<string> {
  const address = nextClientAddress();
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  return address;
}

/**
 * A test's start: a client address of its own for the page's context (so the sign-in limits of
 * one test never meet another's), and no request leaves the machine: any host but this one gets
 * a stub page.
 */
export async function isolateBrowser(page: Page, context: BrowserContext = page.context()) {
  await useClientAddress(page);
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>stub</title>" }),
  );
}

/** `label` made unique to this call: names and e-mail addresses no other test (or run) uses. */
export const uniqueLabel = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** Today's date at `time` ("12:00") in the business's time zone, as the Create Service input takes it. */
export function businessTodayAt(time: string) {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
  return `${day}T${time}`;
}

export type NewCustomer = { fullName: string; email: string; password: string };

/** A customer of this test's own: `First <unique>`, `<unique>@example.com`. */
export function newCustomer(firstName: string, tag: string, password: string): NewCustomer {
  return {
    fullName: `${firstName} ${uniqueLabel(tag)}`,
    email: `${uniqueLabel(tag.toLowerCase())}@example.com`,
    password,
  };
}

/** Creates the account through the sign-up form (JavaScript on or off), then signs in with it. */
export async function signUpCustomer(page: Page, customer: NewCustomer) {
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Full Name").fill(customer.fullName);
  await page.getByLabel("Email").fill(customer.email);
  await page.getByLabel("Password").fill(customer.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await signIn(page, customer.email, customer.password);
}

/**
 * On the admin's dashboard (where an admin's sign-in lands): a visit for `customer` through
 * Create Service, at `date` (a datetime-local value, e.g. businessTodayAt("12:00")).
 */
export async function createVisitFor(
  page: Page,
  js: boolean,
  customer: Pick<NewCustomer, "fullName" | "email">,
  date: string,
  serviceType = "Weekly Service",
) {
  if (js) await waitForHydration(page);
  await pickCustomer(page, js, customer.email, `${customer.fullName} (${customer.email}) (unverified)`);
  await page.getByLabel("Service Type").selectOption(serviceType);
  await page.getByLabel("Service Date").fill(date);
  await page.getByRole("button", { name: "Create Service" }).click();
  await expectToast(page, js, "Success", "Service created successfully");
  // Leaving the date field for the button validates it on blur: that must never read as a failure.
  await expect(page.getByText("Failed to create service"), "no failure toast beside the success").toHaveCount(0);
}

/**
 * What went wrong in a page while a journey ran: errors thrown in the browser, and any answer
 * of 500 or more from this server. Check with expectNoFailures at each step.
 */
export function watchForFailures(page: Page) {
  const failures: string[] = [];
  page.on("pageerror", (error) => failures.push(`page error: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 500) failures.push(`${response.status()} from ${response.url()}`);
  });
  return failures;
}

/** No 5xx and no browser error so far (watchForFailures), and no error or warning toast showing. */
export async function expectNoFailures(page: Page, failures: string[], step: string) {
  expect(failures, `failures ${step}`).toEqual([]);
  const errorToasts = page.locator(
    ":is([data-sonner-toast], [data-testid=flash-toast]):is([data-type=error], [data-type=warning])",
  );
  await expect(errorToasts, `error toasts ${step}`).toHaveCount(0);
}

/**
 * A toast with this title (and description): sonner's once React runs, the server-rendered
 * live region (decision 008) without JavaScript.
 */
export async function expectToast(page: Page, js: boolean, title: string, description?: string) {
  // A hydrated page shows sonner's toast; a static page (decision 066, 068), and any page with
  // JavaScript off, the server's live region.
  let toast = js ? page.locator("[data-sonner-toast], [data-testid=flash-toast]") : page.getByTestId("flash-toast");
  toast = toast.filter({ hasText: title });
  if (description) toast = toast.filter({ hasText: description });
  await expect(toast.first()).toBeVisible();
}

/** No error toast shows, in either kind of toast (a success test's other side). */
export async function expectNoErrorToast(page: Page) {
  await expect(page.locator("[data-sonner-toast], [data-testid=flash-toast]").filter({ hasText: "Error" })).toHaveCount(
    0,
  );
}

/** With JavaScript, sonner keeps a toast for a few seconds: let it go before the next step. */
export async function waitForToastsToClear(page: Page, js: boolean) {
  if (js) await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
}

/**
 * Picks a customer in the Create Service form by searching for `search`, then choosing the
 * option labelled `label`. Without JavaScript: the search box's GET form, then the select of
 * its matches. With it: the combobox, typing and clicking the option it fetched.
 */
export async function pickCustomer(page: Page, js: boolean, search: string, label: string) {
  if (js) {
    await waitForHydration(page);
    const combobox = page.getByRole("combobox", { name: "Customer", exact: true });
    await combobox.fill(search);
    await page.getByRole("option", { name: label, exact: true }).click();
    await expect(combobox).toHaveValue(label);
  } else {
    await page.getByLabel("Find a customer").fill(search);
    await page.getByRole("button", { name: "Search customers" }).click();
    await expect(page).toHaveURL(/customerSearch=/);
    await page.getByLabel("Customer", { exact: true }).selectOption({ label });
  }
}

export type { CaughtMail } from "../helpers/mail-catcher";

/** Every message the run's mail catcher (tests/e2e/global-setup.ts) has stored so far, newest first. */
export function caughtMails(): CaughtMail[] {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: run the browser tests through playwright.config.ts");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json") && !name.startsWith("."))
    .sort()
    .reverse()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as CaughtMail);
}

/**
 * Waits for an e-mail to `to` (envelope or To header, any case) whose subject is `subject` (or
 * matches it), and answers the newest such message. `match` narrows further (e.g. the link it
 * must carry). Visit e-mails leave through the outbox worker right after the commit; account
 * e-mails right after the response: seconds, unless sending failed and waits for its retry.
 */
export async function waitForMail(
  to: string,
  subject: string | RegExp,
  options: { timeout?: number; match?: (mail: CaughtMail) => boolean } = {},
): Promise<CaughtMail> {
  const address = to.toLowerCase();
  const isWanted = (mail: CaughtMail) =>
    (mail.envelopeTo.includes(address) || mail.to.includes(address)) &&
    (typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject)) &&
    (options.match?.(mail) ?? true);
  const timeout = options.timeout ?? 20_000;
  const started = Date.now();
  for (;;) {
    const mails = caughtMails();
    const found = mails.find(isWanted);
    if (found) return found;
    if (Date.now() - started > timeout) {
      const theirs = mails.filter((m) => m.envelopeTo.includes(address) || m.to.includes(address));
      throw new Error(
        `No e-mail to ${to} with subject ${String(subject)} within ${timeout} ms; ` +
          `to that address: ${JSON.stringify(theirs.map((m) => m.subject))} (${mails.length} in all)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The links of an e-mail whose path starts with `pathPrefix`: from the plain text, and from the
 * HTML part's `href`s (entities decoded), each list in the order written.
 */
export function mailLinks(mail: CaughtMail, pathPrefix: string): { text: string[]; html: string[] } {
  const onPath = (href: string) => {
    try {
      return new URL(href).pathname.startsWith(pathPrefix);
    } catch {
      return false;
    }
  };
  const text = [...mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]).filter(onPath);
  const html = [...(mail.html ?? "").matchAll(/href="([^"]*)"/g)]
    .map((m) =>
      m[1]
        .replace(/&amp;/g, "&")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'"),
    )
    .filter(onPath);
  return { text, html };
}

/**
 * Clicks a form's submit button twice, from the page (Playwright's own click would wait for the
 * next page; decision 068's forms post as documents): the button's label and aria-disabled after the first click, and whether the
 * second was stopped. The form's post must be held (page.route) until this has answered.
 */
export async function busyClicks(page: Page, formId: string) {
  return page.evaluate((id) => {
    const button = document.querySelector<HTMLButtonElement>(`form#${id} button[type=submit]`)!;
    button.click();
    const state = { label: button.textContent, ariaDisabled: button.getAttribute("aria-disabled") };
    let secondClickPrevented = false;
    button.form!.addEventListener("submit", (event) => (secondClickPrevented = event.defaultPrevented), {
      once: true,
    });
    button.click();
    return { ...state, secondClickPrevented };
  }, formId);
}
