import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import type { Kysely } from "kysely";
import Stripe from "stripe";
import { hashPassword } from "../../app/features/accounts/password.server";
import { connect } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";
import { databaseOptionsFromEnv } from "../../db/options";
import type { Database } from "../../db/schema";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import { billingCustomer } from "./billing-customers";
import { expectNoAxeViolations, expectNoErrorToast, expectToast, signInAsAdmin } from "./helpers";
import { allTestAdmins, TEST_ADMIN_PASSWORD } from "./test-admins";
import { seedBillingCustomers } from "./seed-billing-customers";

/**
 * Paying with Stripe in a browser, JavaScript on and off (issue 27 step 3, docs/decisions/103):
 * server.js with Stripe's keys, its stripe package pointed at the local stand-in of Stripe's API
 * (which also plays Checkout's hosted page). "Add a card" lands on the session's page; coming
 * back shows the card, and a new card pays a failed invoice at once (docs/decisions/107); "Pay
 * now" on the customer's open invoice lands on a payment session; the admin charges a card on
 * file from the invoice's page. The server has its own PGlite folder, seeded with the billing
 * journeys' customers, the test admins and two cards before it starts.
 */
let standIn: StripeStandIn;
let site: AppServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  standIn = await startStripeStandIn();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "e2e-stripe-"));
  const handle = connect(databaseOptionsFromEnv({ DATA_DIR: dataDir }));
  try {
    await migrateToLatest(handle.db);
    await seedBillingCustomers(handle.db);
    await seedAdminAndCards(handle.db);
  } finally {
    await handle.close();
  }
  site = await startAppServer(
    {
      DATA_DIR: dataDir,
      STRIPE_SECRET_KEY: "sk_test_standin0123456789",
      STRIPE_WEBHOOK_SECRET: "whsec_standin0123456789",
      STRIPE_API_BASE_URL: standIn.url,
      // The 303 after "Add a card" is a form navigation: CSP form-action must allow Checkout's origin.
      FORM_ACTION_ORIGINS: standIn.url,
    },
    { ready: "healthy" },
  );
});
test.afterAll(async () => {
  await site?.stop();
  await standIn?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Every test admin (so that each worker signs in as its own, tests/e2e/test-admins.ts), and a
 * Visa on file at the stand-in for the admin journeys' customers.
 */
async function seedAdminAndCards(db: Kysely<Database>) {
  const passwordHash = await hashPassword(TEST_ADMIN_PASSWORD);
  for (const admin of allTestAdmins()) {
    const user = await db
      .insertInto("users")
      .values({ email: admin.email, password_hash: passwordHash, email_verified_at: new Date() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("profiles").values({ user_id: user.id, full_name: admin.fullName }).execute();
    await db.insertInto("user_roles").values({ user_id: user.id, role: "owner" }).execute();
    await db
      .insertInto("user_totp")
      .values({ user_id: user.id, secret: admin.totpSecret, enabled_at: new Date() })
      .execute();
  }
  for (const journey of ["admin-js", "admin-nojs"] as const) {
    const customer = billingCustomer(journey, 0);
    const user = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", customer.email)
      .executeTakeFirstOrThrow();
    const stripeCustomerId = `cus_e2e${journey.replace("-", "")}`;
    standIn.customers.set(stripeCustomerId, {
      id: stripeCustomerId,
      object: "customer",
      metadata: { user_id: user.id },
      invoice_settings: { default_payment_method: null },
    });
    const card = standIn.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 });
    await db
      .insertInto("stripe_customers")
      .values({
        user_id: user.id,
        stripe_customer_id: stripeCustomerId,
        payment_method_id: card.id,
        card_brand: "visa",
        card_last4: "4242",
        card_exp_month: 4,
        card_exp_year: 2030,
        card_added_at: new Date(),
      })
      .execute();
  }
}

async function signInAsCustomer(page: Page, customer: { email: string; password: string }) {
  await page.goto(`${site.url}/auth`);
  await page.getByLabel("Email").fill(customer.email);
  await page.getByLabel("Password").fill(customer.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/auth");
}

/** Checkout's hosted page (the stand-in's): the session it is on. */
async function onCheckout(page: Page) {
  await page.waitForURL(new RegExp(`^${standIn.url}/checkout/cs_`));
  await expect(page.getByRole("heading", { name: "Checkout stand-in" })).toBeVisible();
  return standIn.sessions.get(new URL(page.url()).pathname.split("/").pop() ?? "")!;
}

/** "Add a card" / "Update card" through Checkout with a new Visa; back on the Billing page. */
async function putCardOnFile(page: Page, button: "Add a card" | "Update card", last4: string) {
  await page.getByRole("button", { name: button }).click();
  const session = await onCheckout(page);
  expect(session.mode).toBe("setup");
  const card = standIn.addPaymentMethod({ brand: "visa", last4, expMonth: 4, expYear: 2030 });
  standIn.completeSetupSession(session.id, card.id);
  await page.goto(session.success_url);
  await expect(page).toHaveURL(`${site.url}/customer-dashboard/billing`);
  await expect(page.getByTestId("card-on-file")).toHaveText(`Visa ending ${last4}, expires 04/2030`);
}

// The customer-js / customer-nojs journeys' customers: each with one open invoice of $89.00 due
// on 1 November 2026 whose card payment failed (seeded), and no card on file.
test("after a decline, a new card pays the invoice at once (JavaScript on)", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: true });
  const page = await context.newPage();
  const customer = billingCustomer("customer-js", 0);
  await signInAsCustomer(page, customer);
  await page.goto(`${site.url}/customer-dashboard/billing`);
  await expect(page.getByRole("heading", { name: "Card on file" })).toBeVisible();
  await expect(page.getByTestId("card-on-file")).toHaveText("No card on file.");
  await expect(page.getByText("The reason given: Your card was declined.")).toBeVisible();
  await expectNoAxeViolations(page, "billing with Stripe and a failed payment");

  await putCardOnFile(page, "Add a card", "4242");
  await expect(
    page.getByText(`Your card is on file and paid invoice ${customer.invoiceNumber} ($89.00).`),
  ).toBeVisible();
  await expect(page.getByText("Payment failed")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Your payment didn't go through" })).toHaveCount(0);
  await expect(page.getByTestId("open-balance")).toHaveText("$0.00");
  await expect(page.getByText("The reason given: Your card was declined.")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Pay now/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Update card" })).toBeVisible();
  await expectNoAxeViolations(page, "billing with a card on file");
  // The charge was the invoice's second attempt, made off-session with the new card.
  const charges = standIn.requests.filter((request) => request.path === "/v1/payment_intents");
  expect(charges.map((request) => request.params.off_session)).toEqual(["true"]);
  await context.close();
});

test("Pay now goes to Stripe Checkout and back, then a card is put on file (JavaScript off)", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAsCustomer(page, billingCustomer("customer-nojs", 0));
  await page.goto(`${site.url}/customer-dashboard/billing`);
  await expect(page.getByTestId("card-on-file")).toHaveText("No card on file.");

  // Pay now on the open invoice: a Checkout session in payment mode for its $89.00.
  await page.getByRole("button", { name: /^Pay now/ }).click();
  const paySession = await onCheckout(page);
  expect(paySession.mode).toBe("payment");
  expect(paySession.metadata.invoice_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(paySession.amount_total).toBe(8900);

  // Paid on Stripe's page; its webhook goes through server.js (bounded body, signature header
  // required) with the bytes intact; the way back shows the invoice paid, once.
  const { session } = standIn.completePaymentSession(paySession.id);
  const payload = JSON.stringify(standIn.event("checkout.session.completed", session));
  const deliver = (signature: string | null) =>
    fetch(`${site.url}/resources/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(signature ? { "Stripe-Signature": signature } : {}) },
      body: payload,
    });
  expect((await deliver(null)).status).toBeGreaterThanOrEqual(400);
  expect((await deliver("t=1,v1=00")).status).toBe(400);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_standin0123456789" });
  expect((await deliver(signature)).status).toBe(200);
  expect((await deliver(signature)).status).toBe(200);
  await page.goto(session.success_url);
  await expect(page.getByText("Paid", { exact: true }).first()).toBeVisible();
  await page.goto(`${site.url}/customer-dashboard/billing`);
  await expect(page.getByTestId("open-balance")).toHaveText("$0.00");
  await expect(page.getByRole("button", { name: /^Pay now/ })).toHaveCount(0);

  // A card put on file with nothing left to pay charges nothing.
  const before = standIn.requests.filter((request) => request.path === "/v1/payment_intents").length;
  await putCardOnFile(page, "Add a card", "1881");
  await expect(page.getByText("Your card is on file.", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Update card" })).toBeVisible();
  expect(standIn.requests.filter((request) => request.path === "/v1/payment_intents")).toHaveLength(before);
  await context.close();
});

for (const js of [true, false]) {
  test(`the admin charges the card on file from the invoice's page (JavaScript ${js ? "on" : "off"})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ javaScriptEnabled: js, baseURL: site.url });
    const page = await context.newPage();
    const customer = billingCustomer(js ? "admin-js" : "admin-nojs", 0);
    await signInAsAdmin(page);
    await page.goto("/admin-dashboard/billing?status=open");
    await page.getByRole("link", { name: customer.invoiceNumber, exact: true }).click();
    await expect(page.getByRole("heading", { name: `Invoice ${customer.invoiceNumber}` })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Charge the card on file" })).toBeVisible();
    await expect(page.getByText("Visa ending 4242, expires 04/2030.", { exact: false })).toBeVisible();
    if (js) await expectNoAxeViolations(page, "admin invoice with a card on file");

    await page.getByRole("button", { name: "Charge $89.00" }).click();
    await expectToast(page, js, "Success", "Card charged");
    await expectNoErrorToast(page);
    await expect(page.getByTestId("invoice-balance")).toHaveText("$0.00");
    await expect(page.getByText("$89.00 by Card (Stripe)")).toBeVisible();
    await expect(page.getByRole("button", { name: "Charge $89.00" })).toHaveCount(0);
    const charges = standIn.requests.filter(
      (request) =>
        request.path === "/v1/payment_intents" && request.params.customer === `cus_e2e${js ? "adminjs" : "adminnojs"}`,
    );
    expect(charges.map((request) => request.params.amount)).toEqual(["8900"]);
    await context.close();
  });
}
