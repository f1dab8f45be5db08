import { expect, test, type APIRequestContext, type Page, type Request } from "@playwright/test";
import { QUOTE_MESSAGES } from "../../app/features/quotes/quote-schema";
import { bundledDocuments } from "../helpers/bundled-dataset";
import { expectNoAxeViolations, useClientAddress, waitForHydration } from "./helpers";

/**
 * /contact ships no React (decision 068): the quote form is server-rendered and posts natively,
 * and its plain browser script (app/features/quotes/quote-form.browser.ts) adds instant
 * validation, the live estimate, the busy label and focus on the news. What the script shows is
 * checked against what the server renders for the same values.
 */

type Doc = Record<string, unknown> & { _id: string };
const documents: Doc[] = bundledDocuments();
const submitLabel = (
  documents.find((d) => d._id === "contactPage") as unknown as { quoteForm: { submitLabel: string } }
).quoteForm.submitLabel;

const GOOD = {
  name: "Script Visitor",
  phone: "702-555-0177",
  email: "script-visitor@example.com",
  address: "742 Sagebrush Way",
  zip: "89048",
  dogs: "2",
  yardSize: "medium",
  service: "weekly",
  message: "",
  website: "",
};

const form = (page: Page) => page.locator("#quote-form");
const control = (page: Page, name: string) => form(page).locator(`[name="${name}"]`);
const errorOf = (page: Page, name: string) => page.locator(`#quote-form-${name}-error`);

const decode = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The page the server answers to a plain post of these values (a refused post: 400). */
async function serverPage(request: APIRequestContext, values: Record<string, string>): Promise<string> {
  const response = await request.post("/contact", { form: values });
  expect(response.status()).toBe(400);
  return response.text();
}

/** The server's message for a field in a refused post's page. */
function serverMessage(html: string, name: string): string | null {
  const match = new RegExp(`<p id="quote-form-${name}-error"[^>]*>([^<]*)</p>`).exec(html);
  return match ? decode(match[1]) : null;
}

/** The inside of the server-rendered #quote-estimate. */
function serverEstimate(html: string): string {
  const match = /<div id="quote-estimate"[^>]*>((?:<div[^>]*>[\s\S]*?<\/div>)?)<\/div>/.exec(html);
  if (!match) throw new Error("no #quote-estimate in the server's page");
  return match[1];
}

/** Every POST the page sends to /contact. */
function collectPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/contact") posts.push(request);
  });
  return posts;
}

/** Console errors, uncaught errors and CSP violations of the page, from now on. */
async function collectProblems(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) =>
      w.__violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return async () => [
    ...problems,
    ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).map(
      (violation) => `csp: ${violation}`,
    ),
  ];
}

async function openContact(page: Page) {
  await page.goto("/contact");
  await waitForHydration(page);
  await expect(form(page)).toHaveAttribute("data-enhanced", "true");
}

async function fillGood(page: Page, overrides: Partial<typeof GOOD> = {}) {
  const values = { ...GOOD, ...overrides };
  for (const name of ["name", "phone", "email", "address", "zip", "message"] as const)
    await control(page, name).fill(values[name]);
  for (const name of ["dogs", "yardSize", "service"] as const) await control(page, name).selectOption(values[name]);
}

test.beforeEach(async ({ page }) => {
  await useClientAddress(page);
});

test("/contact loads only its own plain script: no React, no Remix, no error, no CSP violation", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  const problems = await collectProblems(page);
  const response = await page.goto("/contact");
  const html = await response!.text();
  expect(html).not.toContain("__remixContext");
  expect(html).not.toContain('rel="modulepreload"');
  await waitForHydration(page);
  await expect(form(page)).toHaveAttribute("data-enhanced", "true");
  // The form's script and the accessibility panel's (decision 074).
  expect([...scripts].sort()).toEqual([
    expect.stringMatching(/^\/build\/browser\/accessibility-panel-[^/]*\.js$/),
    expect.stringMatching(/^\/build\/browser\/quote-form-[^/]*\.js$/),
  ]);

  // The script works, with nothing logged: a message, an estimate.
  await control(page, "email").fill("nope");
  await control(page, "email").blur();
  await expect(errorOf(page, "email")).toBeVisible();
  await control(page, "service").selectOption("weekly");
  await expect(page.locator("#quote-estimate")).toContainText("Estimated price:");
  expect(await problems()).toEqual([]);
});

test("a field is checked on blur with the server's own message, and cleared once corrected", async ({
  page,
  request,
}) => {
  await openContact(page);
  const cases: { name: string; bad: string; good: string }[] = [
    { name: "email", bad: "not-an-address", good: "visitor@example.com" },
    { name: "phone", bad: "555-01", good: "(702) 555-0142" },
    { name: "zip", bad: "", good: "89048" },
    { name: "name", bad: "   ", good: "Dana" },
  ];
  const refused = await serverPage(request, Object.fromEntries(cases.map((c) => [c.name, c.bad])));
  for (const { name, bad, good } of cases) {
    const field = control(page, name);
    const expected = serverMessage(refused, name);
    expect(expected, `the server's message for ${name}`).toBeTruthy();

    await field.fill(bad);
    // Nothing is said while the visitor is still typing in a field never checked.
    await expect(errorOf(page, name)).toBeHidden();
    await field.blur();
    await expect(errorOf(page, name)).toHaveText(expected!);
    await expect(errorOf(page, name)).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAttribute("aria-describedby", new RegExp(`(^| )quote-form-${name}-error( |$)`));

    // Once checked, every keystroke checks again: the message goes as soon as the value is right.
    await field.fill(good);
    await expect(errorOf(page, name)).toBeHidden();
    await expect(errorOf(page, name)).toHaveText("");
    await expect(field).not.toHaveAttribute("aria-invalid", /.*/);
    await expect(field).not.toHaveAttribute("aria-describedby", /quote-form-.*-error/);
  }
  // The select keeps describing itself by the estimate, with or without its error.
  const service = control(page, "service");
  await service.focus();
  await service.blur();
  await expect(errorOf(page, "service")).toHaveText(QUOTE_MESSAGES.serviceRequired);
  await expect(service).toHaveAttribute("aria-describedby", "quote-form-service-error quote-estimate");
  await service.selectOption("weekly");
  await expect(errorOf(page, "service")).toBeHidden();
  await expect(service).toHaveAttribute("aria-describedby", "quote-estimate");
});

test("a submit with errors posts nothing, shows every message and focuses the first invalid field", async ({
  page,
}) => {
  const problems = await collectProblems(page);
  await openContact(page);
  const posts = collectPosts(page);
  await control(page, "email").fill("visitor@example.com");
  await page.getByRole("button", { name: submitLabel }).click();

  await expect(control(page, "name")).toBeFocused();
  await expect(errorOf(page, "name")).toHaveText(QUOTE_MESSAGES.nameRequired);
  await expect(errorOf(page, "phone")).toHaveText(QUOTE_MESSAGES.phoneRequired);
  await expect(errorOf(page, "dogs")).toHaveText(QUOTE_MESSAGES.dogs);
  await expect(errorOf(page, "service")).toHaveText(QUOTE_MESSAGES.serviceRequired);
  await expect(errorOf(page, "email")).toBeHidden();
  await expect(control(page, "email")).not.toHaveAttribute("aria-invalid", /.*/);
  await expect(errorOf(page, "message")).toBeHidden();
  await expect(page.getByRole("button", { name: submitLabel })).not.toHaveAttribute("aria-disabled", /.*/);
  // The errors shown by the script pass axe, in both themes.
  await expectNoAxeViolations(page, "on /contact with the script's errors");
  await page.evaluate(async () => {
    document.documentElement.classList.add("dark");
    await Promise.all(document.getAnimations().map((animation) => animation.finished));
  });
  await expectNoAxeViolations(page, "on /contact with the script's errors (dark)");
  await page.evaluate(() => document.documentElement.classList.remove("dark"));

  // Enter in a field is a submit too: still nothing posted, focus stays on the first invalid field.
  await fillGood(page, { phone: "12" });
  await control(page, "email").press("Enter");
  await expect(control(page, "phone")).toBeFocused();
  await expect(errorOf(page, "phone")).toHaveText(QUOTE_MESSAGES.phoneInvalid);
  await expect(errorOf(page, "name")).toBeHidden();
  await page.waitForTimeout(300);
  expect(posts).toHaveLength(0);
  await expect(page).toHaveURL(/\/contact$/);
  expect(await problems()).toEqual([]);
});

test("the estimate follows the service and the dog count, exactly as the server renders it", async ({
  page,
  request,
}) => {
  await openContact(page);
  const estimate = page.locator("#quote-estimate");
  await expect(estimate).toBeEmpty();
  const choices: { service: string; dogs?: string; text: RegExp | null }[] = [
    { service: "weekly", text: /^Estimated price: \$\d+\/month/ },
    { service: "weekly", dogs: "2", text: /^Estimated price: \$\d+\/month\$\d+\/month plan \+\$\d+\/month / },
    { service: "weekly", dogs: "4+", text: /^Estimated price: \$\d+\/month/ },
    { service: "twice-weekly", dogs: "3", text: /^Estimated price: \$\d+\/month/ },
    { service: "dash", dogs: "3", text: /^Estimated price: \$\d+ one-time/ },
    { service: "commercial", dogs: "3", text: null },
  ];
  for (const { service, dogs, text } of choices) {
    await control(page, "service").selectOption(service);
    if (dogs) await control(page, "dogs").selectOption(dogs);
    const values = { ...GOOD, phone: "1", service, dogs: dogs ?? "" };
    const fromServer = serverEstimate(await serverPage(request, values));
    if (text) await expect(estimate).toHaveText(text);
    else await expect(estimate).toBeEmpty();
    expect(await estimate.innerHTML(), `${service}, ${dogs ?? "no"} dogs`).toBe(fromServer);
  }
  // The monthly figure moves with the dogs.
  await control(page, "service").selectOption("weekly");
  await control(page, "dogs").selectOption("1");
  const one = await estimate.locator("p").first().textContent();
  await control(page, "dogs").selectOption("3");
  await expect(estimate.locator("p").first()).not.toHaveText(one!);
  // Typing elsewhere does not rewrite the live region (a screen reader would hear it again).
  await estimate.evaluate((element) => {
    (window as unknown as { __shown: Element | null }).__shown = element.firstElementChild;
  });
  await control(page, "name").pressSequentially("Dana");
  await control(page, "dogs").selectOption("3");
  expect(
    await estimate.evaluate(
      (element) => (window as unknown as { __shown: Element | null }).__shown === element.firstElementChild,
    ),
  ).toBe(true);
});

test("a valid submit marks the button busy, posts once and focuses the news", async ({ page }) => {
  // The test holds the post: a listener after the script's cancels what the script let through,
  // so the page stays to be looked at. It records whether the script had cancelled it already.
  await page.addInitScript(() => {
    const w = window as unknown as { __submits: boolean[] };
    w.__submits = [];
    window.addEventListener("submit", (event) => {
      w.__submits.push(event.defaultPrevented);
      event.preventDefault();
    });
  });
  await openContact(page);
  const posts = collectPosts(page);
  const submits = () => page.evaluate(() => (window as unknown as { __submits: boolean[] }).__submits);
  await fillGood(page, { email: `busy-${Date.now()}@example.com` });
  const button = form(page).locator("button[type=submit]");
  await button.click();
  expect(await submits()).toEqual([false]);
  await expect(button).toHaveText("Sending...");
  await expect(button).toHaveAttribute("aria-disabled", "true");
  // A second click while the post is under way is cancelled by the script.
  await button.click({ force: true });
  expect(await submits()).toEqual([false, true]);
  await expect(button).toHaveText("Sending...");
  expect(posts).toHaveLength(0);

  // The held post goes (form.submit() fires no submit event): the success screen has focus.
  await form(page).evaluate((element) => (element as HTMLFormElement).submit());
  await expect(page).toHaveURL(/\/contact\?sent=[^#]+#quote-sent-heading$/);
  await expect(page.getByTestId("quote-sent").getByRole("heading", { name: "Quote request sent" })).toBeFocused();
  expect(posts).toHaveLength(1);
});

test("the success screen loads no React: its toast is the server's, closed by Escape, focus back on the news", async ({
  page,
}) => {
  await openContact(page);
  const problems = await collectProblems(page);
  await fillGood(page, { email: `success-${Date.now()}@example.com` });
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  const [answer] = await Promise.all([
    page.waitForResponse(
      (response) => response.request().method() === "GET" && new URL(response.url()).searchParams.has("sent"),
    ),
    page.getByRole("button", { name: submitLabel }).click(),
  ]);
  await expect(page).toHaveURL(/\/contact\?sent=[^#]+#quote-sent-heading$/);
  const html = await answer.text();
  expect(html).not.toContain("__remixContext");
  expect(html).not.toContain('rel="modulepreload"');
  const news = page.getByTestId("quote-sent").getByRole("heading", { name: "Quote request sent" });
  await expect(news).toBeFocused();
  const toast = page.getByTestId("flash-toast");
  await expect(toast).toContainText("Quote request sent");
  await expect(toast).toHaveAttribute("role", "status");
  // Decision 075: only the toast's plain script (the screen has no form), never Remix's modules.
  const close = page.getByRole("button", { name: "Close notification" });
  await expect(close).toBeVisible();
  expect([...scripts].sort()).toEqual([
    expect.stringMatching(/^\/build\/browser\/accessibility-panel-[^/]*\.js$/),
    expect.stringMatching(/^\/build\/browser\/static-toast-[^/]*\.js$/),
  ]);
  // Focus in the toast, then Escape: the toast goes and focus is back on the news.
  await close.focus();
  await page.keyboard.press("Escape");
  await expect(page.locator("[data-static-toast]")).toHaveCount(0);
  await expect(news).toBeFocused();
  expect(await problems()).toEqual([]);
});

test("after a refused post, the fields the server marked are checked on every keystroke", async ({ page }) => {
  await openContact(page);
  await fillGood(page, { phone: "555-01", email: `refused-${Date.now()}@example.com` });
  // form.submit() skips the submit event: the script cannot stop it, the server refuses.
  await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST" && response.status() === 400),
    form(page).evaluate((element) => (element as HTMLFormElement).submit()),
  ]);
  await expect(form(page)).toHaveAttribute("data-enhanced", "true");
  const phone = control(page, "phone");
  await expect(phone).toBeFocused();
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(errorOf(page, "phone")).toHaveText(QUOTE_MESSAGES.phoneInvalid);
  // The values are kept and the estimate of them is on the page.
  await expect(control(page, "service")).toHaveValue("weekly");
  await expect(page.locator("#quote-estimate")).toContainText("Estimated price:");

  await phone.fill("(702) 555-0142");
  await expect(errorOf(page, "phone")).toBeHidden();
  await expect(phone).not.toHaveAttribute("aria-invalid", /.*/);
  await page.getByRole("button", { name: submitLabel }).click();
  await expect(page).toHaveURL(/\/contact\?sent=/);
  await expect(page.getByRole("heading", { name: "Quote request sent" })).toBeFocused();
});
