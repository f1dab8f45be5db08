import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import {
  MAIL_CONTEXT,
  addVisit,
  at8,
  bill,
  createCustomer,
  createPlan,
  hoursBefore,
  insertOpenInvoice,
} from "../helpers/billing-fixtures";
import { clearMoney, ledgerSum } from "../helpers/ledger";
import { loadOverpaid } from "~/features/billing/ledger-export.server";
import type { RecoveryContext } from "~/features/billing/payment-recovery-emails.server";
import { runPaymentCollection, type ChargeInvoice } from "~/features/billing/payment-recovery.server";
import {
  BillingError,
  recordPayment,
  recordRefund,
  reissueInvoice,
  reversePayment,
  voidInvoice,
} from "~/features/billing/payments.server";

/**
 * The customer ledger (issue 34, docs/decisions/113), one regression test per finding of the
 * review, on a real database with a fixed clock, through the real workflow functions.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const context: RecoveryContext = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://localhost:3000",
  graceDays: 7,
  planRules: { changeNoticeHours: 24, longestPauseDays: 90, horizonDays: 28, firstVisitTime: "08:00", closedDays: [] },
};
beforeEach(async () => {
  await clearMoney(db());
  await db().deleteFrom("outbox").execute();
});

const openInvoice = (customerId: string, totalCents: number, values: Record<string, unknown> = {}) =>
  insertOpenInvoice(db(), customerId, totalCents, {
    period_month: "2027-03-01",
    issued_on: "2027-03-01",
    due_on: "2027-03-01",
    ...values,
  });
const invoiceRow = (id: string) =>
  db().selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const now = new Date("2027-03-05T18:00:00Z");
let key = 0;
const nextKey = () => `ledger-test-${(key += 1)}`;

const pay = (invoiceId: string, amountCents: number, extra: Partial<Parameters<typeof recordPayment>[1]> = {}) =>
  recordPayment(db(), {
    invoiceId,
    method: "cash",
    amountCents,
    paidOn: "2027-03-05",
    note: null,
    recordedBy: null,
    idempotencyKey: nextKey(),
    now,
    context: MAIL_CONTEXT,
    ...extra,
  });
const refund = async (invoiceId: string, amountCents: number) => {
  const payment = await db()
    .selectFrom("payments")
    .select("id")
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .executeTakeFirstOrThrow();
  return recordRefund(db(), {
    invoiceId,
    paymentId: payment.id,
    amountCents,
    refundedOn: "2027-03-06",
    note: "Goodwill",
    recordedBy: null,
    idempotencyKey: nextKey(),
    now,
  });
};

/** A card charge that records what it was asked and pays the invoice, as Stripe would. */
function recordingCharge() {
  const calls: string[] = [];
  const charge: ChargeInvoice = async (handle, input) => {
    calls.push(input.invoiceId);
    return { kind: "failed", reason: "Your card was declined.", paymentIntentId: `pi_${calls.length}` };
  };
  return { charge, calls };
}

async function giveCardRow(userId: string) {
  await db()
    .insertInto("stripe_customers")
    .values({
      user_id: userId,
      stripe_customer_id: `cus_${userId.slice(0, 8)}`,
      payment_method_id: "pm_card",
      card_brand: "visa",
      card_last4: "4242",
      card_exp_month: 4,
      card_exp_year: 2030,
      card_added_at: new Date("2027-01-01T00:00:00Z"),
    })
    .execute();
}

/** The ledger's sum, the open invoices' dues and the credit on file agree (docs/decisions/113). */
async function expectBooksToAgree(customerId: string) {
  const { rows } = await sql<{ owed: string; entries: string }>`
    select
      (select coalesce(sum(total_cents - paid_cents), 0) from invoices where customer_id = ${customerId} and status = 'open') as owed,
      (select coalesce(sum(amount_cents), 0) from ledger_entries where customer_id = ${customerId}) as entries`.execute(
    db(),
  );
  const owed = Number(rows[0].owed);
  const balance = Number(rows[0].entries);
  // Credit on file is used at once on what is owed: a customer never has both.
  expect(owed === 0 || balance === owed, `owed ${owed}, ledger ${balance}`).toBe(true);
  return balance;
}

describe("the customer ledger", () => {
  it("is append-only: no entry can be updated, deleted or truncated", async () => {
    const customer = await createCustomer(db());
    const invoice = await openInvoice(customer, 8900);
    const [entry] = await db().selectFrom("ledger_entries").selectAll().where("invoice_id", "=", invoice.id).execute();
    expect(entry).toMatchObject({ kind: "invoice", amount_cents: 8900, customer_id: customer });
    await expect(
      db().updateTable("ledger_entries").set({ amount_cents: 1 }).where("entry_key", "=", entry.entry_key).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom("ledger_entries").where("entry_key", "=", entry.entry_key).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`truncate ledger_entries cascade`.execute(db())).rejects.toThrow(/append-only/);
    // Nor can an invoice that is an entry be deleted.
    await expect(db().deleteFrom("invoices").where("id", "=", invoice.id).execute()).rejects.toThrow(/ledger_entries/);
    expect(await ledgerSum(db(), customer)).toBe(8900);
  });

  it("a refund never reopens its invoice: the card is not charged again and the plan is not paused", async () => {
    // The review's case: $89 paid in cash, $20 refunded as goodwill, on an invoice that once failed.
    const customer = await createCustomer(db());
    await giveCardRow(customer);
    const invoice = await openInvoice(customer, 8900, {
      first_failed_at: new Date("2027-03-01T18:00:00Z"),
      last_failed_at: new Date("2027-03-01T18:00:00Z"),
      charge_attempts: 1,
      next_charge_on: "2027-03-04",
    });
    await pay(invoice.id, 8900);
    await refund(invoice.id, 2000);

    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid", paid_cents: 8900, refunded_cents: 2000 });
    expect(await ledgerSum(db(), customer)).toBe(0);
    const entries = await db()
      .selectFrom("ledger_entries")
      .select(["kind", "amount_cents"])
      .where("customer_id", "=", customer)
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      { kind: "invoice", amount_cents: 8900 },
      { kind: "payment", amount_cents: -8900 },
      { kind: "refund", amount_cents: 2000 },
      { kind: "credit_note", amount_cents: -2000 },
    ]);

    // Days later, with the grace period over: nothing is charged, nothing paused, nothing e-mailed.
    const { charge, calls } = recordingCharge();
    const collected = await runPaymentCollection({
      now: new Date("2027-03-20T18:00:00Z"),
      db: db(),
      context,
      charge,
      stripeConfigured: true,
    });
    expect(calls).toEqual([]);
    expect(collected).toMatchObject({ charged: 0, paused: 0 });
    const mail = await db().selectFrom("outbox").select("kind").execute();
    expect(mail.map((row) => row.kind).sort()).toEqual(["payment_receipt"]);
  });

  it("only Reverse payment makes money owed again, and never more than was paid", async () => {
    const customer = await createCustomer(db());
    const invoice = await openInvoice(customer, 8900);
    await pay(invoice.id, 8900, { method: "check" });
    const payment = await db()
      .selectFrom("payments")
      .select("id")
      .where("invoice_id", "=", invoice.id)
      .executeTakeFirstOrThrow();
    const reverse = (amountCents: number, idempotencyKey = nextKey()) =>
      reversePayment(db(), {
        invoiceId: invoice.id,
        paymentId: payment.id,
        amountCents,
        reversedOn: "2027-03-08",
        note: "The check bounced",
        recordedBy: null,
        idempotencyKey,
        now,
      });
    await expect(reverse(8901)).rejects.toThrow(BillingError);
    expect(await db().selectFrom("payment_reversals").selectAll().execute()).toEqual([]);
    const once = nextKey();
    expect(await reverse(8900, once)).toEqual({ repeated: false });
    expect(await reverse(8900, once)).toEqual({ repeated: true });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "open", paid_cents: 0, paid_at: null });
    expect(await ledgerSum(db(), customer)).toBe(8900);
    await expectBooksToAgree(customer);
  });

  it("a reversal with credit on file uses the credit first (found by the property test)", async () => {
    const customer = await createCustomer(db());
    const invoice = await openInvoice(customer, 8900);
    // A card paid 98.79 for 89.00: 9.79 is credit on file. Then 84.95 of it is reversed.
    await pay(invoice.id, 9879, {
      method: "stripe",
      stripePaymentIntentId: "pi_over",
      idempotencyKey: "stripe:pi_over",
    });
    const payment = await db()
      .selectFrom("payments")
      .select("id")
      .where("invoice_id", "=", invoice.id)
      .executeTakeFirstOrThrow();
    await reversePayment(db(), {
      invoiceId: invoice.id,
      paymentId: payment.id,
      amountCents: 8495,
      reversedOn: "2027-03-08",
      note: null,
      recordedBy: null,
      idempotencyKey: nextKey(),
      now,
    });
    expect(await invoiceRow(invoice.id)).toMatchObject({
      status: "open",
      paid_cents: 405 + 979,
      credit_applied_cents: 979,
    });
    expect(await expectBooksToAgree(customer)).toBe(8495 - 979);
  });

  it("a Stripe payment on a settled invoice is kept as credit and pays what else is owed", async () => {
    const customer = await createCustomer(db());
    const march = await openInvoice(customer, 8900);
    const april = await openInvoice(customer, 5000, { period_month: "2027-04-01", due_on: "2027-04-01" });
    await pay(march.id, 8900);
    // A Checkout left open pays March again.
    await pay(march.id, 8900, { method: "stripe", stripePaymentIntentId: "pi_late", idempotencyKey: "stripe:pi_late" });
    const late = await db()
      .selectFrom("payments")
      .selectAll()
      .where("stripe_payment_intent_id", "=", "pi_late")
      .executeTakeFirstOrThrow();
    expect(late.to_credit_cents).toBe(8900);
    expect(await invoiceRow(march.id)).toMatchObject({ status: "paid", paid_cents: 8900, credit_applied_cents: 0 });
    expect(await invoiceRow(april.id)).toMatchObject({ status: "paid", paid_cents: 5000, credit_applied_cents: 5000 });
    // 89.00 came twice for 139.00 owed: 39.00 is credit on file.
    expect(await ledgerSum(db(), customer)).toBe(-3900);
    await expectBooksToAgree(customer);

    // The admin sees it on the Billing tab's "Overpaid" list.
    // (89.00 came beyond March; 50.00 of it paid April: 39.00 is still on file.)
    expect((await loadOverpaid(db())).items).toMatchObject([{ number: march.number, beyond: "$39.00" }]);

    // Refunding the overpayment pays back the credit first: no credit note for that part.
    await recordRefund(db(), {
      invoiceId: march.id,
      paymentId: late.id,
      amountCents: 3900,
      refundedOn: "2027-03-07",
      note: null,
      recordedBy: null,
      idempotencyKey: nextKey(),
      now,
    });
    expect(await ledgerSum(db(), customer)).toBe(0);
    expect(await db().selectFrom("credit_notes").selectAll().execute()).toEqual([]);
    expect((await loadOverpaid(db())).items).toEqual([]);
  });

  it("voiding an invoice part paid by credit gives the credit back for what else is owed", async () => {
    const customer = await createCustomer(db());
    const first = await openInvoice(customer, 3000);
    await pay(first.id, 3000, { method: "stripe", stripePaymentIntentId: "pi_a", idempotencyKey: "stripe:pi_a" });
    await pay(first.id, 2000, { method: "stripe", stripePaymentIntentId: "pi_b", idempotencyKey: "stripe:pi_b" });
    expect(await ledgerSum(db(), customer)).toBe(-2000);
    const second = await openInvoice(customer, 5000, { period_month: "2027-04-01" });
    // Credit is applied by the code paths that make credit or issue invoices; an invoice inserted
    // by hand (as here) takes it at its next money event: voiding it later gives it back.
    const { applyCreditOnFile } = await import("~/features/billing/customer-credit.server");
    await db()
      .transaction()
      .execute((trx) => applyCreditOnFile(trx, [customer], now));
    expect(await invoiceRow(second.id)).toMatchObject({ status: "open", paid_cents: 2000, credit_applied_cents: 2000 });
    const third = await openInvoice(customer, 1500, { period_month: "2027-05-01" });
    await voidInvoice(db(), { invoiceId: second.id, now });
    expect(await invoiceRow(third.id)).toMatchObject({ status: "paid", credit_applied_cents: 1500 });
    expect(await ledgerSum(db(), customer)).toBe(-500);
    await expectBooksToAgree(customer);
  });
});

describe("Issue again", () => {
  it("issues a voided plan invoice again, once, with its charges (its credits came back at the void); a live one is refused", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    const skipped = await addVisit(db(), {
      customerId: plan.customer_id,
      planId: plan.id,
      day: "2027-02-02",
      status: "skipped",
      skipReason: "customer",
      skippedAt: hoursBefore(at8("2027-02-02"), 72),
    });
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const [march] = await db().selectFrom("invoices").selectAll().where("plan_id", "=", plan.id).execute();
    await expect(reissueInvoice(db(), { invoiceId: march.id, now })).rejects.toThrow(/Only a voided invoice/);
    await voidInvoice(db(), { invoiceId: march.id, now });
    // The void forgives March but gives the skip's credit back as credit on file (decision 120).
    const skipCredit = 8900 - march.total_cents;
    expect(skipCredit).toBeGreaterThan(0);
    expect(await ledgerSum(db(), plan.customer_id)).toBe(-skipCredit);

    const again = await reissueInvoice(db(), { invoiceId: march.id, now });
    // A second press finds the first reissue.
    expect(await reissueInvoice(db(), { invoiceId: march.id, now })).toBe(again);
    const reissued = await invoiceRow(again);
    expect(reissued).toMatchObject({
      plan_id: plan.id,
      period_month: "2027-03-01",
      status: "open",
      total_cents: 8900,
      issued_on: "2027-03-05",
    });
    expect(reissued.number).not.toBe(march.number);
    expect((await invoiceRow(march.id)).reissued_as).toBe(again);
    const lines = await db()
      .selectFrom("invoice_lines")
      .selectAll()
      .where("invoice_id", "in", [march.id, again])
      .execute();
    // The skip's credit is the void's credit note's, not carried again: each visit credited once.
    expect(lines.filter((line) => line.visit_id !== null)).toEqual([]);
    expect(
      await db().selectFrom("credit_note_lines").select("amount_cents").where("visit_id", "=", skipped).execute(),
    ).toEqual([{ amount_cents: skipCredit }]);
    expect(await ledgerSum(db(), plan.customer_id)).toBe(march.total_cents);
    // The run does not bill the month again.
    expect(await bill({ db: db(), now: new Date("2027-03-05T19:00:00Z"), mailContext: MAIL_CONTEXT })).toMatchObject({
      invoices: 0,
    });

    // Voided again, and another invoice made live for the month meanwhile: refused, nothing stored.
    await voidInvoice(db(), { invoiceId: again, now });
    const third = await reissueInvoice(db(), { invoiceId: again, now });
    const count = await db().selectFrom("invoices").select("id").where("plan_id", "=", plan.id).execute();
    await db().updateTable("invoices").set({ reissued_as: null }).where("id", "=", march.id).execute();
    await expect(reissueInvoice(db(), { invoiceId: march.id, now })).rejects.toThrow(/already this plan's/);
    expect(await db().selectFrom("invoices").select("id").where("plan_id", "=", plan.id).execute()).toHaveLength(
      count.length,
    );
    expect(third).not.toBe(again);
  });
});

describe("the billing run and the ledger", () => {
  it("a credit beyond an invoice is settled at issue and carried to the next invoice, which is charged only the rest", async () => {
    // March billed 159.00 for twice-weekly service; every March visit was skipped with notice; the
    // plan is weekly (89.00) from April. April: 89.00 - 159.00 < 0, settled, 70.00 on file. May:
    // 89.00 less the 70.00: 19.00 due.
    const plan = await createPlan(
      { weekdays: [2, 4], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.twice-weekly" },
      db(),
    );
    const customer = plan.customer_id;
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const [march] = await db().selectFrom("invoices").selectAll().where("customer_id", "=", customer).execute();
    expect(march).toMatchObject({ total_cents: 15900 });
    await pay(march.id, 15900);
    for (const day of ["02", "04", "09", "11", "16", "18", "23", "25", "30"]) {
      await addVisit(db(), {
        customerId: customer,
        planId: plan.id,
        day: `2027-03-${day}`,
        status: "skipped",
        skipReason: "customer",
        skippedAt: hoursBefore(at8("2027-03-01"), 72),
      });
    }
    await db()
      .updateTable("customer_plans")
      .set({
        catalogue_plan_id: "servicePlan.weekly",
        catalogue_plan_name: "Weekly Swift Service",
        visits_per_week: 1,
        weekdays: [2],
        // As changePlan stores it: the plan is priced at its new catalogue plan (decision 116).
        price_cents: 8900,
        add_on_cents: 0,
      })
      .where("id", "=", plan.id)
      .execute();

    await bill({ db: db(), now: new Date("2027-04-01T16:00:00Z"), mailContext: MAIL_CONTEXT });
    const april = await db()
      .selectFrom("invoices")
      .selectAll()
      .where("customer_id", "=", customer)
      .where("period_month", "=", "2027-04-01")
      .executeTakeFirstOrThrow();
    // Nine visits of a month billed 159.00: the credits are exactly 159.00, never more.
    expect(april).toMatchObject({ total_cents: 8900 - 15900, status: "paid" });
    expect(await ledgerSum(db(), customer)).toBe(-7000);

    await bill({ db: db(), now: new Date("2027-05-01T16:00:00Z"), mailContext: MAIL_CONTEXT });
    const may = await db()
      .selectFrom("invoices")
      .selectAll()
      .where("customer_id", "=", customer)
      .where("period_month", "=", "2027-05-01")
      .executeTakeFirstOrThrow();
    expect(may).toMatchObject({ total_cents: 8900, status: "open", credit_applied_cents: 7000, paid_cents: 7000 });
    expect(await ledgerSum(db(), customer)).toBe(1900);
    await expectBooksToAgree(customer);
    const mail = await db()
      .selectFrom("outbox")
      .select("text_body")
      .where("related_id", "=", may.id)
      .where("kind", "=", "invoice_issued")
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("Amount due: $19.00");
  });

  it("bills every completed one-time service exactly once, however late and across batch edges", async () => {
    const alone = await createCustomer(db());
    const other = await createCustomer(db());
    const services = [];
    for (const day of ["2027-02-03", "2027-02-10", "2027-02-17"]) {
      services.push(await addVisit(db(), { customerId: alone, day, type: "Desert Dash", status: "completed" }));
    }
    services.push(
      await addVisit(db(), { customerId: other, day: "2027-02-12", type: "Yard Refresh", status: "completed" }),
    );
    // A Yard Refresh done on the 26th, marked completed only after the March run.
    const late = await addVisit(db(), {
      customerId: other,
      day: "2027-02-26",
      type: "Yard Refresh",
      status: "scheduled",
    });

    await bill({ db: db(), batchSize: 2, mailContext: MAIL_CONTEXT });
    await db()
      .updateTable("services")
      .set({ status: "completed", completed_at: new Date() })
      .where("id", "=", late)
      .execute();
    await bill({ db: db(), now: new Date("2027-03-02T16:00:00Z"), batchSize: 2, mailContext: MAIL_CONTEXT });
    await bill({ db: db(), now: new Date("2027-03-02T17:00:00Z"), batchSize: 2, mailContext: MAIL_CONTEXT });

    const lines = await db()
      .selectFrom("invoice_lines")
      .select(["visit_id", "amount_cents"])
      .where("kind", "=", "one_time_service")
      .execute();
    expect(lines.map((line) => line.visit_id).sort()).toEqual([...services, late].sort());
    expect(await ledgerSum(db(), alone)).toBe(3 * 8500);
    expect(await ledgerSum(db(), other)).toBe(2 * 7500);
  });
});
