import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { addVisit, bill, createPlan, MAIL_CONTEXT } from "../helpers/billing-fixtures";
import { createUser, type TestUser } from "../helpers/factories";
import { ledgerSum } from "../helpers/ledger";
import { giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { loadLedgerMonth } from "~/features/billing/ledger-export.server";
import { parseCents } from "~/features/billing/money";
import { loadStaffTips } from "~/features/staff/staff-tips.server";
import { handleTipAction } from "~/features/tips/tip-page.server";
import { giveTip, NOT_COMPLETED, tipChargeKey } from "~/features/tips/tips.server";
import { getVisit } from "~/models/visit.server";

/**
 * Tips for technicians (issue 36 item 5, docs/decisions/131) against PostgreSQL (or PGlite) and
 * the Stripe stand-in the billing tests use: a card tip charged once, a tip without Stripe on the
 * next invoice once, refusals that store nothing, and the month's roll-forward still to the cent.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);
const TIP_DAY = new Date("2027-02-23T18:00:00Z");

let ana: TestUser;

beforeAll(async () => {
  ana = await createUser(db(), { fullName: "Ana Reyes", role: "technician" });
});

/** A customer on a weekly plan with a completed visit on Monday 2027-02-22 assigned to Ana. */
async function customerWithVisit(status: "completed" | "scheduled" = "completed") {
  const plan = await createPlan({ weekdays: [1], start_date: "2027-02-01" }, db());
  const visitId = await addVisit(db(), { customerId: plan.customer_id, planId: plan.id, day: "2027-02-22", status });
  await db().updateTable("services").set({ assigned_to: ana.id }).where("id", "=", visitId).execute();
  return { customerId: plan.customer_id, planId: plan.id, visitId };
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};
/** "−$1,234.50" → -123450. */
const cents = (amount: string) => (amount.startsWith("−") ? -1 : 1) * parseCents(amount.replace("−", ""))!;

/** Opening plus every row is the closing, and the closing is every entry's sum to the month's end. */
async function expectItAddsUp(month: Awaited<ReturnType<typeof loadLedgerMonth>>) {
  const rows = month.rows.reduce((sum, r) => sum + (r.amount === "$0.00" ? 0 : cents(r.amount)), 0);
  const opening = month.opening === "$0.00" ? 0 : cents(month.opening);
  expect(opening + rows).toBe(month.closing === "$0.00" ? 0 : cents(month.closing));
  const all = await db()
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("amount_cents"), eb.val("0")).as("sum"))
    .where("occurred_on", "<", "2027-04-01")
    .executeTakeFirstOrThrow();
  expect(opening + rows).toBe(Number(all.sum));
}

const tipsOf = (visitId: string) => db().selectFrom("tips").selectAll().where("visit_id", "=", visitId).execute();
const entriesOf = (customerId: string) =>
  db()
    .selectFrom("ledger_entries")
    .select(["kind", "amount_cents", "technician_id", "tip_id", "invoice_id"])
    .where("customer_id", "=", customerId)
    .orderBy("id")
    .execute();

describe("a tip charged to the card on file", () => {
  it("is charged once, off-session under the tip's key, and entered for the technician as given and paid", async () => {
    const { customerId, visitId } = await customerWithVisit();
    const { customerId: stripeCustomer, paymentMethodId } = await giveCard(db(), stripe.current, customerId);

    const first = await handleTipAction(customerId, visitId, form({ choice: "1000" }), TIP_DAY);
    // A double click: the second press finds the first tip and charges nothing.
    const second = await handleTipAction(customerId, visitId, form({ choice: "2000" }), TIP_DAY);
    expect(first).toEqual({ status: 200, data: { message: "Thank you! Your tip of $10.00 was charged." } });
    expect(second).toEqual({ status: 200, data: { message: "This visit already has your tip. Thank you!" } });

    const [tip, ...more] = await tipsOf(visitId);
    expect(more).toEqual([]);
    expect(tip).toMatchObject({ amount_cents: 1000, way: "card", technician_id: ana.id, invoice_id: null });
    const requests = stripe.current.posts("/v1/payment_intents");
    expect(requests).toHaveLength(1);
    expect(requests[0].idempotencyKey).toBe(tipChargeKey(tip.id));
    expect(requests[0].params).toMatchObject({
      amount: "1000",
      customer: stripeCustomer,
      payment_method: paymentMethodId,
      off_session: "true",
      confirm: "true",
    });
    expect(tip.stripe_payment_intent_id).toBe([...stripe.current.paymentIntents.keys()][0]);
    expect(await entriesOf(customerId)).toEqual([
      { kind: "tip", amount_cents: 1000, technician_id: ana.id, tip_id: tip.id, invoice_id: null },
      { kind: "tip_payment", amount_cents: -1000, technician_id: ana.id, tip_id: tip.id, invoice_id: null },
    ]);
    // Given and paid at once: the customer owes nothing for it, and no payment or invoice was made.
    expect(await ledgerSum(db(), customerId)).toBe(0);
    expect(await db().selectFrom("payments").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("invoices").selectAll().where("customer_id", "=", customerId).execute()).toEqual([]);

    // The next billing run does not bill it again.
    useStripe(stripe.current);
    await bill({ stripeConfigured: true, mailContext: MAIL_CONTEXT });
    const lines = await db().selectFrom("invoice_lines").select("kind").where("kind", "=", "tip").execute();
    expect(lines).toEqual([]);
  });

  it("a decline stores nothing and may be tried again under a new key", async () => {
    const { customerId, visitId } = await customerWithVisit();
    const { paymentMethodId } = await giveCard(db(), stripe.current, customerId);
    stripe.current.outcomes.set(paymentMethodId, "insufficient_funds");

    const declined = await handleTipAction(customerId, visitId, form({ choice: "500" }), TIP_DAY);
    expect(declined).toEqual({
      status: 402,
      data: { error: "Your card was not charged: Your card has insufficient funds." },
    });
    expect(await tipsOf(visitId)).toEqual([]);
    expect(await entriesOf(customerId)).toEqual([]);

    stripe.current.outcomes.delete(paymentMethodId);
    const again = await handleTipAction(customerId, visitId, form({ choice: "500" }), TIP_DAY);
    expect(again.status).toBe(200);
    const keys = stripe.current.posts("/v1/payment_intents").map((request) => request.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
    expect(await ledgerSum(db(), customerId)).toBe(0);
  });
});

describe("a tip without Stripe", () => {
  it("lands on the next invoice exactly once, as its own line, and is entered apart from the invoice", async () => {
    useStripe(null);
    const { customerId, visitId } = await customerWithVisit();
    const given = await handleTipAction(customerId, visitId, form({ choice: "other", other: "7.50" }), TIP_DAY);
    expect(given).toEqual({ status: 200, data: { message: "Thank you! Your tip of $7.50 is on your next invoice." } });
    // Given, not yet on an invoice: nothing is owed for it yet.
    expect(await entriesOf(customerId)).toEqual([]);

    await bill({ stripeConfigured: false, mailContext: MAIL_CONTEXT });
    await bill({ stripeConfigured: false, mailContext: MAIL_CONTEXT });
    const invoices = await db()
      .selectFrom("invoices")
      .select(["id", "total_cents", "tip_cents"])
      .where("customer_id", "=", customerId)
      .execute();
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    const lines = await db()
      .selectFrom("invoice_lines")
      .select(["kind", "description", "amount_cents"])
      .where("invoice_id", "=", invoice.id)
      .orderBy("position")
      .execute();
    expect(lines).toEqual([
      { kind: "plan_month", description: expect.any(String), amount_cents: 8900 },
      { kind: "tip", description: "Tip for Ana, visit Feb 22, 2027", amount_cents: 750 },
    ]);
    expect(invoice).toMatchObject({ total_cents: 9650, tip_cents: 750 });
    const [tip] = await tipsOf(visitId);
    expect(tip.invoice_id).toBe(invoice.id);
    expect(await entriesOf(customerId)).toEqual([
      { kind: "invoice", amount_cents: 8900, technician_id: null, tip_id: null, invoice_id: invoice.id },
      { kind: "tip", amount_cents: 750, technician_id: ana.id, tip_id: tip.id, invoice_id: invoice.id },
    ]);
    // The customer owes the whole invoice, tip included: balance = what the open invoice owes.
    expect(await ledgerSum(db(), customerId)).toBe(9650);

    // The month's roll-forward: the tip is its own line, not "Invoiced", and it adds up to the cent.
    const march = await loadLedgerMonth(db(), "2027-03-01");
    const row = (label: string) => march.rows.find((r) => r.label === label)?.amount;
    const issued = await db()
      .selectFrom("invoices")
      .select((eb) => [eb.fn.sum<string>("total_cents").as("total"), eb.fn.sum<string>("tip_cents").as("tips")])
      .where("issued_on", ">=", "2027-03-01")
      .executeTakeFirstOrThrow();
    expect(Number(issued.tips)).toBe(750);
    expect(cents(row("Invoiced")!)).toBe(Number(issued.total) - 750);
    expect(row("Tips for staff")).toBe("$7.50");
    await expectItAddsUp(march);

    // The Staff page: Ana's tip, given Feb 23, in its pay period (two weeks from Monday 2026-01-05).
    const staff = await loadStaffTips(db(), new Date("2027-03-01T18:00:00Z"));
    expect(staff?.periods).toEqual([
      {
        label: "Feb 15, 2027 to Feb 28, 2027",
        rows: [{ technician: "Ana Reyes", tips: 1, total: "$7.50", card: "$0.00", invoice: "$7.50" }],
      },
    ]);
  });

  it("a void gives the tip back as its own entry, and the roll-forward still adds up", async () => {
    useStripe(null);
    const { customerId, visitId } = await customerWithVisit();
    await handleTipAction(customerId, visitId, form({ choice: "2000" }), TIP_DAY);
    await bill({ stripeConfigured: false, mailContext: MAIL_CONTEXT });
    const invoice = await db()
      .selectFrom("invoices")
      .select("id")
      .where("customer_id", "=", customerId)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable("invoices")
      .set({ status: "void", voided_at: new Date("2027-03-02T18:00:00Z") })
      .where("id", "=", invoice.id)
      .execute();
    const kinds = (await entriesOf(customerId)).map((e) => [e.kind, e.amount_cents]);
    expect(kinds).toEqual([
      ["invoice", 8900],
      ["tip", 2000],
      ["invoice_void", -8900],
      ["tip_void", -2000],
    ]);
    expect(await ledgerSum(db(), customerId)).toBe(0);
    const march = await loadLedgerMonth(db(), "2027-03-01");
    expect(march.rows.find((r) => r.label === "Tips voided")?.amount).toBe("−$20.00");
    await expectItAddsUp(march);
  });
});

describe("refusals store nothing", () => {
  it.each([
    ["1e3", "Enter the tip in dollars and cents, for example 7 or 7.50."],
    ["12.345", "Enter the tip in dollars and cents, for example 7 or 7.50."],
    ["-5", "Enter the tip in dollars and cents, for example 7 or 7.50."],
    ["0", "Enter the tip in dollars and cents, for example 7 or 7.50."],
    ["", "Enter the tip in dollars and cents, for example 7 or 7.50."],
    ["0.99", "Enter a tip from $1.00 to $500.00."],
    ["500.01", "Enter a tip from $1.00 to $500.00."],
  ])("Other %j is refused", async (other, error) => {
    const { customerId, visitId } = await customerWithVisit();
    await giveCard(db(), stripe.current, customerId);
    expect(await handleTipAction(customerId, visitId, form({ choice: "other", other }), TIP_DAY)).toEqual({
      status: 400,
      data: { error, field: "other" },
    });
    expect(await tipsOf(visitId)).toEqual([]);
    expect(stripe.current.posts("/v1/payment_intents")).toEqual([]);
  });

  it("an amount the owner does not offer, or none, is refused", async () => {
    const { customerId, visitId } = await customerWithVisit();
    for (const choice of ["700", "100000", "abc", ""]) {
      const result = await handleTipAction(customerId, visitId, form({ choice }), TIP_DAY);
      expect(result).toEqual({ status: 400, data: { error: "Choose a tip amount.", field: "choice" } });
    }
    expect(await tipsOf(visitId)).toEqual([]);
  });

  it("a visit not completed, or another customer's, takes no tip", async () => {
    const { customerId, visitId } = await customerWithVisit("scheduled");
    await giveCard(db(), stripe.current, customerId);
    expect(await handleTipAction(customerId, visitId, form({ choice: "500" }), TIP_DAY)).toEqual({
      status: 409,
      data: { error: NOT_COMPLETED },
    });
    const other = await customerWithVisit();
    // Someone else's visit reads as a missing one, through the page and through the workflow.
    expect(await handleTipAction(customerId, other.visitId, form({ choice: "500" }), TIP_DAY)).toEqual({
      status: 404,
      data: { error: "Visit not found" },
    });
    const visit = await getVisit(other.visitId);
    expect(await giveTip(db(), { visit, customerId, amountCents: 500, now: TIP_DAY })).toEqual({
      kind: "refused",
      reason: "Visit not found",
      status: 404,
    });
    expect(await db().selectFrom("tips").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("ledger_entries").selectAll().execute()).toEqual([]);
    expect(stripe.current.posts("/v1/payment_intents")).toEqual([]);
  });

  it("the database refuses a tip out of bounds, or a second tip of a visit", async () => {
    const { customerId, visitId } = await customerWithVisit();
    const row = { visit_id: visitId, customer_id: customerId, technician_id: ana.id, way: "invoice" as const };
    await expect(
      db()
        .insertInto("tips")
        .values({ ...row, amount_cents: 50001, given_on: "2027-02-23" })
        .execute(),
    ).rejects.toThrow(/check/);
    await db()
      .insertInto("tips")
      .values({ ...row, amount_cents: 500, given_on: "2027-02-23" })
      .execute();
    await expect(
      db()
        .insertInto("tips")
        .values({ ...row, amount_cents: 500, given_on: "2027-02-23" })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/);
  });
});
