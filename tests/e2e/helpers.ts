import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";
import { DEV_ADMIN_TOTP_SECRET, totpForStep, totpStep } from "../helpers/totp";

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

/**
 * Types the current code on /auth/verify and waits until the browser leaves it. Each code
 * works once, and other tests (in another worker) may sign in as the same admin within the
 * same 30 seconds: a refused code is followed by the next step's (one step of drift is
 * accepted), and if that was used too, by the next one once its time has come.
 */
export async function enterTotpCode(page: Page, secret: string) {
  const tries = [0, 1, "wait"] as const;
  for (const attempt of tries) {
    let step = totpStep() + (attempt === "wait" ? 1 : attempt);
    if (attempt === "wait") {
      await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 200);
      step = totpStep() + 1;
    }
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
