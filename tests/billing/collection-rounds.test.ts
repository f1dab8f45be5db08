import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { clearBilling, createOpenInvoice, giveCard, useStripe } from "../helpers/stripe-billing";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import { customerWithTuesdayPlan } from "../helpers/plan-seed";
import { testServerUrl } from "../helpers/test-database";
import {
  COLLECTION_CONCURRENCY,
  runPaymentCollection,
  type ChargeInvoice,
  type CollectionOptions,
  type RecoveryContext,
} from "~/features/billing/payment-recovery.server";
import { recordPayment } from "~/features/billing/payments.server";

/**
 * The collection at scale (issue 34 item 10, docs/decisions/112): charges overlap, up to
 * COLLECTION_CONCURRENCY at once; a round starts charges only within its time budget and the
 * next round charges what it left; no invoice is ever charged twice. On a real database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL); the invoices are due on 1 March 2028.
 */
const database = useAppDatabase();
const db = () => database.current.db;
/** 10:00 in Las Vegas on 1 March 2028, the invoices' due day. */
const DUE_DAY = new Date("2028-03-01T18:00:00Z");
const context: RecoveryContext = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://localhost:3000",
  graceDays: 7,
  planRules: { changeNoticeHours: 24, longestPauseDays: 90, horizonDays: 28, firstVisitTime: "08:00", closedDays: [] },
};
// On PostgreSQL the charges' statements go to the pool, as in production; PGlite has one connection.
const pooled = Boolean(testServerUrl());
const collect = (options: Partial<CollectionOptions> = {}) =>
  runPaymentCollection({ now: DUE_DAY, db: db(), context, stripeConfigured: true, pooled, ...options });

beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
  await clearBilling(db());
});

/** `count` customers, each with one open invoice of $89 due on the due day; their ids. */
async function openInvoices(count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const user = await db()
      .insertInto("users")
      .values({ email: `rounds-${crypto.randomUUID()}@example.com` })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(await createOpenInvoice(db(), user.id));
  }
  return ids;
}

/** A charge that pays (as Stripe's records the payment), counting the calls and how many overlap. */
function payingCharge(options: { ms?: number; onStart?: () => void } = {}) {
  const calls: string[] = [];
  const state = { inFlight: 0, most: 0 };
  const charge: ChargeInvoice = async (handle, input) => {
    calls.push(input.invoiceId);
    options.onStart?.();
    state.inFlight += 1;
    state.most = Math.max(state.most, state.inFlight);
    try {
      // Stripe's round trip, in which the other charges go on.
      await new Promise((resolve) => setTimeout(resolve, options.ms ?? 15));
      const paymentIntentId = `pi_${input.invoiceId.slice(0, 8)}_${input.attempt}`;
      await recordPayment(handle, {
        invoiceId: input.invoiceId,
        method: "stripe",
        amountCents: 8900,
        paidOn: "2028-03-01",
        note: null,
        recordedBy: null,
        idempotencyKey: `stripe:${paymentIntentId}`,
        stripePaymentIntentId: paymentIntentId,
        now: input.now,
      });
      return { kind: "succeeded", paymentIntentId };
    } finally {
      state.inFlight -= 1;
    }
  };
  return { charge, calls, state };
}

const statuses = async (ids: string[]) =>
  (await db().selectFrom("invoices").select(["id", "status"]).where("id", "in", ids).execute()).map(
    (row) => row.status,
  );

describe("the collection's rounds", () => {
  it(`charges up to ${COLLECTION_CONCURRENCY} invoices at once, each once, across keyset batches`, async () => {
    const ids = await openInvoices(30);
    const { charge, calls, state } = payingCharge();
    const result = await collect({ charge, batchSize: 7 });
    expect(result).toMatchObject({ ran: true, charged: 30, succeeded: 30, failed: 0, budgetSpent: false });
    // One at a time before: 100,000 cards took hours.
    expect(state.most).toBe(COLLECTION_CONCURRENCY);
    expect(calls.sort()).toEqual([...ids].sort());
    expect(new Set(await statuses(ids))).toEqual(new Set(["paid"]));
    expect(await db().selectFrom("payments").select("id").execute()).toHaveLength(30);
    // A second round finds nothing due.
    const again = await collect({ charge });
    expect(again).toMatchObject({ charged: 0 });
    expect(calls).toHaveLength(30);
  });

  it("a round starts charges only within its time budget; the next rounds charge the rest, none twice, and the pauses due are still made", async () => {
    const ids = await openInvoices(12);
    // A plan's invoice that failed 10 days ago with no try left: its pause is due today.
    const seeded = await customerWithTuesdayPlan(db(), context.planRules);
    const failedAt = new Date(DUE_DAY.getTime() - 10 * 86_400_000);
    await db()
      .insertInto("invoices")
      .values({
        number: "2028-990001",
        customer_id: seeded.customer.id,
        plan_id: seeded.plan.id,
        period_month: "2028-02-01",
        status: "open",
        issued_on: "2028-02-01",
        due_on: "2028-02-01",
        total_cents: 8900,
        charge_attempts: 3,
        first_failed_at: failedAt,
        last_failed_at: failedAt,
        last_failure_reason: "Your card was declined.",
      })
      .execute();
    // A clock that each charge moves on by a minute as it starts; the budget is five minutes.
    let minutes = 0;
    const { charge, calls } = payingCharge({ onStart: () => (minutes += 1) });
    const round = () => collect({ charge, concurrency: 2, budgetMs: 5 * 60_000, clock: () => minutes * 60_000 });

    const first = await round();
    expect(first).toMatchObject({ charged: 5, succeeded: 5, paused: 1, budgetSpent: true });
    expect((await statuses(ids)).filter((status) => status === "open")).toHaveLength(7);
    const second = await round();
    expect(second).toMatchObject({ charged: 5, paused: 0, budgetSpent: true });
    const third = await round();
    expect(third).toMatchObject({ charged: 2, paused: 0, budgetSpent: false });
    expect(calls.sort()).toEqual([...ids].sort());
    expect(new Set(await statuses(ids))).toEqual(new Set(["paid"]));
  });

  it("an invoice in both lists (never tried, and marked due today by a new card) is charged once in a round", async () => {
    const [id] = await openInvoices(1);
    await db().updateTable("invoices").set({ next_charge_on: "2028-03-01" }).where("id", "=", id).execute();
    const calls: string[] = [];
    const declining: ChargeInvoice = async (_handle, input) => {
      calls.push(input.invoiceId);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { kind: "failed", reason: "Your card was declined.", paymentIntentId: `pi_${input.attempt}` };
    };
    const result = await collect({ charge: declining });
    expect(result).toMatchObject({ charged: 1, failed: 1 });
    expect(calls).toEqual([id]);
    const invoice = await db()
      .selectFrom("invoices")
      .select(["charge_attempts", "next_charge_on"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(invoice).toEqual({ charge_attempts: 1, next_charge_on: "2028-03-04" });
  });
});

describe("against the stand-in of Stripe's API", () => {
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(async () => {
    useStripe(null);
    await standIn.close();
  });

  it("40 cards, 8 at once: one PaymentIntent per invoice, each paid once; a second round charges nothing", async () => {
    useStripe(standIn);
    standIn.reset();
    const ids = await openInvoices(40);
    const customers = await db().selectFrom("invoices").select("customer_id").where("id", "in", ids).execute();
    for (const { customer_id } of customers) await giveCard(db(), standIn, customer_id);
    const first = await runPaymentCollection({ now: DUE_DAY, db: db(), context, batchSize: 16, pooled });
    expect(first).toMatchObject({ ran: true, charged: 40, succeeded: 40, failed: 0 });
    const second = await runPaymentCollection({ now: DUE_DAY, db: db(), context, pooled });
    expect(second).toMatchObject({ ran: true, charged: 0 });
    const keys = standIn.posts("/v1/payment_intents").map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(40);
    // One key per invoice, attempt and amount (docs/decisions/111): the default 89.00 each.
    expect(new Set(keys)).toEqual(new Set(ids.map((id) => `invoice:${id}:attempt:1:amount:8900`)));
    const payments = await db().selectFrom("payments").select(["invoice_id", "amount_cents"]).execute();
    expect(payments.map((row) => row.invoice_id).sort()).toEqual([...ids].sort());
    expect(new Set(await statuses(ids))).toEqual(new Set(["paid"]));
  });
});
