import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";

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
 * browser has left /auth for the person's portal.
 */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/auth");
}
