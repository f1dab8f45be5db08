import { clearMoney } from "./ledger";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Database } from "../../db/schema";
import { startStripeStandIn, type StripeStandIn } from "./stripe-stand-in";
import { resetEnvCache } from "~/utils/env.server";

/** The test keys of the Stripe tests: the package signs and checks with the same secret. */
export const STRIPE_TEST_ENV = {
  STRIPE_SECRET_KEY: "sk_test_standin0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_standin0123456789",
};

/** Turns Stripe on (pointed at the stand-in) or off (the embedded default) for the next calls. */
export function useStripe(standIn: StripeStandIn | null, extra: Record<string, string> = {}) {
  const values: Record<string, string> = {
    ...STRIPE_TEST_ENV,
    STRIPE_API_BASE_URL: standIn?.url ?? "",
    SITE_URL: "https://yards.example.com",
    ...extra,
  };
  for (const [key, value] of Object.entries(values)) {
    if (standIn) process.env[key] = value;
    else delete process.env[key];
  }
  resetEnvCache();
}

/**
 * The stand-in for one test file: started once, the app pointed at it before each test with its
 * requests forgotten and the billing tables empty, and Stripe off and the stand-in closed after.
 * Register it before the file's own hooks, which may then use `current`.
 */
export function useStripeStandIn(db: () => Kysely<Database>): { readonly current: StripeStandIn } {
  let standIn: StripeStandIn | undefined;
  const holder = {
    get current() {
      if (!standIn) throw new Error("the Stripe stand-in is not started yet");
      return standIn;
    },
  };
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(async () => {
    useStripe(null);
    await standIn?.close();
  });
  beforeEach(async () => {
    useStripe(holder.current);
    holder.current.reset();
    await clearBilling(db());
  });
  return holder;
}

// Where the Stripe tests have always found it.
export { createOpenInvoice } from "./billing-fixtures";

/** Empties the billing tables between tests (children first). */
export async function clearBilling(db: Kysely<Database>) {
  await db.deleteFrom("stripe_payment_failures").execute();
  await db.deleteFrom("stripe_events").execute();
  await clearMoney(db);
  await db.deleteFrom("stripe_customers").execute();
}

/** A Stripe customer at the stand-in with a card on file here (as after "Add a card"). */
export async function giveCard(
  db: Kysely<Database>,
  standIn: StripeStandIn,
  userId: string,
  card = { brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 },
) {
  const customerId = `cus_test${userId.replace(/-/g, "").slice(0, 14)}`;
  standIn.customers.set(customerId, {
    id: customerId,
    object: "customer",
    metadata: { user_id: userId },
    invoice_settings: { default_payment_method: null },
  });
  const pm = standIn.addPaymentMethod(card);
  await db
    .insertInto("stripe_customers")
    .values({
      user_id: userId,
      stripe_customer_id: customerId,
      payment_method_id: pm.id,
      card_brand: card.brand,
      card_last4: card.last4,
      card_exp_month: card.expMonth,
      card_exp_year: card.expYear,
      card_added_at: new Date("2028-01-01T00:00:00Z"),
    })
    .execute();
  return { customerId, paymentMethodId: pm.id as string };
}
