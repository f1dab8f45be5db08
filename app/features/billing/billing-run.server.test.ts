import { sql, type Kysely } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { connect } from "../../../db/connection";
import type { Database } from "../../../db/schema";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { testServerUrl } from "../../../tests/helpers/test-database";
import { queueInvoiceEmails } from "./billing-emails.server";
import { BILLING_RUN_LOCK, type BillingRunOptions } from "./billing-run.server";
import type { MailContext } from "./payment-recovery-emails.server";
import {
  addVisit as addVisitIn,
  at8,
  bill as billWith,
  createCustomer as createCustomerIn,
  createPlan as createPlanIn,
  hoursBefore,
  RULES,
} from "../../../tests/helpers/billing-fixtures";
import { clearMoney } from "../../../tests/helpers/ledger";

/**
 * The billing run (issue 27, docs/decisions/101) on a real database with a fixed clock: March 2027
 * is billed on Monday March 1 (billing day 1); the invoice settles February's visits.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const bill = (options: Partial<BillingRunOptions> = {}) => billWith({ db: db(), ...options });
const createCustomer = (handle: Kysely<Database> = db()) => createCustomerIn(handle);
const createPlan = (values: Parameters<typeof createPlanIn>[0], handle: Kysely<Database> = db()) =>
  createPlanIn(values, handle);
const addVisit = (values: Parameters<typeof addVisitIn>[1]) => addVisitIn(db(), values);

async function invoicesWithLines() {
  const invoices = await db().selectFrom("invoices").selectAll().orderBy("number").execute();
  const lines = await db().selectFrom("invoice_lines").selectAll().orderBy("invoice_id").orderBy("position").execute();
  return invoices.map((invoice) => ({
    ...invoice,
    lines: lines.filter((line) => line.invoice_id === invoice.id),
  }));
}

beforeEach(async () => {
  await clearMoney(db());
  await db().deleteFrom("invoice_number_counters").execute();
  await db().deleteFrom("service_events").execute();
  await db().deleteFrom("services").execute();
  await db().deleteFrom("customer_plans").execute();
});

describe("runBilling", () => {
  it("bills a whole month for a plan started before it, numbered, open and due on the billing day", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    const result = await bill();
    expect(result).toMatchObject({ ran: true, period: "2027-03-01", plans: 1, invoices: 1, unpriced: 0 });
    const [invoice, ...others] = await invoicesWithLines();
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({
      number: "2027-000001",
      customer_id: plan.customer_id,
      plan_id: plan.id,
      period_month: "2027-03-01",
      status: "open",
      issued_on: "2027-03-01",
      due_on: "2027-03-01",
      total_cents: 8900,
      paid_cents: 0,
      footer: "Thank you.",
    });
    expect(invoice.lines).toMatchObject([
      { kind: "plan_month", description: "Weekly Swift Service, March 2027", amount_cents: 8900, visit_id: null },
    ]);
  });

  it("prorates a plan that starts mid-month by the visits left in it, and adds the dog add-on", async () => {
    // Tuesdays of March 2027: 2, 9, 16, 23, 30. From Wednesday the 17th: 2 of 5.
    const plan = await createPlan({ weekdays: [2], start_date: "2027-03-17", dog_count: 2 });
    const tenth = new Date("2027-03-10T17:00:00Z");
    expect((await bill({ now: tenth })).invoices).toBe(1);
    const [invoice] = await invoicesWithLines();
    // (89 + 15) dollars × 2 / 5 = 41.60.
    expect(invoice).toMatchObject({ plan_id: plan.id, period_month: "2027-03-01", total_cents: 4160 });
    expect(invoice.lines).toMatchObject([
      {
        kind: "prorated_month",
        description: "Weekly Swift Service, March 2027: 2 of 5 visits (from March 17)",
        amount_cents: 4160,
      },
    ]);
  });

  it("bills the whole month when the owner does not prorate, and nothing for a plan starting next month", async () => {
    await createPlan({ weekdays: [2], start_date: "2027-03-17" });
    await createPlan({ weekdays: [2], start_date: "2027-04-05" });
    const result = await bill({ rules: { ...RULES, prorateFirstMonth: false } });
    expect(result).toMatchObject({ plans: 2, invoices: 1 });
    const [invoice] = await invoicesWithLines();
    expect(invoice.lines).toMatchObject([{ kind: "plan_month", amount_cents: 8900 }]);
  });

  it("credits a skip made with notice at the per-visit rate, and a visit held for payment (decision 115); a late skip and a locked gate are not credited", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    const customerId = plan.customer_id;
    const noticed = await addVisit({
      customerId,
      planId: plan.id,
      day: "2027-02-02",
      status: "skipped",
      skipReason: "customer",
      skippedAt: hoursBefore(at8("2027-02-02"), 72),
    });
    // An admin skipped it for the customer who phoned two hours before.
    await addVisit({
      customerId,
      planId: plan.id,
      day: "2027-02-09",
      status: "skipped",
      skipReason: "admin",
      skippedAt: hoursBefore(at8("2027-02-09"), 2),
    });
    const held = await addVisit({
      customerId,
      planId: plan.id,
      day: "2027-02-16",
      status: "skipped",
      skipReason: "payment_overdue",
    });
    await addVisit({ customerId, planId: plan.id, day: "2027-02-23", status: "missed", missedReason: "locked_gate" });
    // A pause made its visit skipped weeks ahead (no status event): with notice.
    const paused = await addVisit({
      customerId,
      planId: plan.id,
      day: "2027-03-02",
      status: "skipped",
      skipReason: "paused",
    });

    await bill();
    const [invoice] = await invoicesWithLines();
    // February (billed before billing began here, at 89.00) had four Tuesdays: 89 ÷ 4 = 22.25.
    expect(invoice.lines).toMatchObject([
      { kind: "plan_month", amount_cents: 8900 },
      {
        kind: "skip_credit",
        visit_id: noticed,
        amount_cents: -2225,
        description: "Credit: visit of February 2 skipped with notice",
      },
      // The business held the visit back, so it is owed whatever the notice.
      {
        kind: "skip_credit",
        visit_id: held,
        amount_cents: -2225,
        description: "Credit: visit of February 16 held for payment",
      },
    ]);
    expect(invoice.total_cents).toBe(8900 - 2 * 2225);
    // March's paused visit is settled by April's invoice, not this one.
    expect(invoice.lines.some((line) => line.visit_id === paused)).toBe(false);

    const april = await bill({ now: new Date("2027-04-01T16:00:00Z") });
    expect(april).toMatchObject({ period: "2027-04-01", invoices: 1 });
    const aprilInvoice = (await invoicesWithLines()).find((row) => row.period_month === "2027-04-01")!;
    expect(aprilInvoice.lines).toMatchObject([
      { kind: "plan_month", amount_cents: 8900 },
      // March, billed 89.00 here, has five Tuesdays: 89 ÷ 5 = 17.80.
      { kind: "skip_credit", visit_id: paused, amount_cents: -1780 },
    ]);
  });

  it("credits no skip when the owner turned the credit off", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    await addVisit({
      customerId: plan.customer_id,
      planId: plan.id,
      day: "2027-02-02",
      status: "skipped",
      skipReason: "customer",
      skippedAt: hoursBefore(at8("2027-02-02"), 72),
    });
    await bill({ rules: { ...RULES, creditSkippedVisits: false } });
    const [invoice] = await invoicesWithLines();
    expect(invoice.lines).toHaveLength(1);
    expect(invoice.total_cents).toBe(8900);
  });

  it("bills a completed one-time service once: on the plan's invoice, or alone for a customer without a plan", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    const dash = await addVisit({
      customerId: plan.customer_id,
      day: "2027-02-12",
      type: "Desert Dash",
      status: "completed",
    });
    // Not completed, or not in the month settled: not billed now.
    await addVisit({ customerId: plan.customer_id, day: "2027-02-19", type: "Desert Dash", status: "scheduled" });
    await addVisit({ customerId: plan.customer_id, day: "2027-01-12", type: "Desert Dash", status: "completed" });
    const alone = await createCustomer();
    const refresh = await addVisit({ customerId: alone, day: "2027-02-15", type: "Yard Refresh", status: "completed" });

    const result = await bill();
    expect(result.invoices).toBe(2);
    const invoices = await invoicesWithLines();
    const planInvoice = invoices.find((row) => row.plan_id === plan.id)!;
    expect(planInvoice.lines).toMatchObject([
      { kind: "plan_month", amount_cents: 8900 },
      { kind: "one_time_service", visit_id: dash, amount_cents: 8500, description: "Swift Dash on Feb 12, 2027" },
    ]);
    expect(planInvoice.total_cents).toBe(17400);
    const servicesInvoice = invoices.find((row) => row.customer_id === alone)!;
    expect(servicesInvoice).toMatchObject({ plan_id: null, period_month: "2027-03-01", total_cents: 7500 });
    expect(servicesInvoice.lines).toMatchObject([{ kind: "one_time_service", visit_id: refresh, amount_cents: 7500 }]);

    expect((await bill()).invoices).toBe(0);
    expect(await db().selectFrom("invoice_lines").select("id").execute()).toHaveLength(3);
  });

  it("run twice makes one invoice per plan and month; numbers continue without gaps", async () => {
    for (let i = 0; i < 5; i += 1) await createPlan({ weekdays: [1, 4], start_date: "2027-01-04" });
    expect((await bill({ batchSize: 2 })).invoices).toBe(5);
    expect(await bill({ batchSize: 2 })).toMatchObject({ ran: true, plans: 5, invoices: 0 });
    const late = await createPlan({ weekdays: [3], start_date: "2027-03-08" });
    expect((await bill({ now: new Date("2027-03-05T17:00:00Z") })).invoices).toBe(1);
    const invoices = await invoicesWithLines();
    expect(invoices.map((row) => row.number)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `2027-00000${n}`));
    expect(invoices.at(-1)!.plan_id).toBe(late.id);
  });

  it("skips a plan whose catalogue plan has no price, and bills a cancelled plan no more", async () => {
    await createPlan({ weekdays: [2], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.gone" });
    const cancelled = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    await db()
      .updateTable("customer_plans")
      .set({ status: "cancelled", cancelled_at: new Date("2027-02-20T00:00:00Z"), last_visit_date: "2027-02-23" })
      .where("id", "=", cancelled.id)
      .execute();
    expect(await bill()).toMatchObject({ plans: 1, invoices: 0, unpriced: 1 });
  });

  it("two runs started at once on one handle make one invoice per plan", async () => {
    for (let i = 0; i < 12; i += 1) await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    const runs = await Promise.all([bill({ batchSize: 5 }), bill({ batchSize: 5 })]);
    expect(runs.some((run) => run.ran)).toBe(true);
    expect(runs[0].invoices + runs[1].invoices).toBe(12);
    expect(await invoicesWithLines()).toHaveLength(12);
  });

  it.skipIf(!testServerUrl())(
    "two runs at once on two connections make one invoice per plan, numbered without gaps; a held lock stops a run (PostgreSQL)",
    async () => {
      for (let i = 0; i < 30; i += 1) await createPlan({ weekdays: [1, 3], start_date: "2027-01-04" });
      const url = new URL(testServerUrl()!);
      url.pathname = `/${database.current.name}`;
      const a = connect({ databaseUrl: url.toString(), poolSize: 2 });
      const b = connect({ databaseUrl: url.toString(), poolSize: 2 });
      try {
        const held = await a.db.connection().execute(async (conn) => {
          await sql`select pg_advisory_lock(hashtextextended(${BILLING_RUN_LOCK}, 0))`.execute(conn);
          try {
            return await bill({ db: b.db });
          } finally {
            await sql`select pg_advisory_unlock(hashtextextended(${BILLING_RUN_LOCK}, 0))`.execute(conn);
          }
        });
        expect(held).toMatchObject({ ran: false, invoices: 0 });
        expect(await invoicesWithLines()).toHaveLength(0);
        // Same lock: one runs, or they run one after the other; either way one invoice each.
        const same = await Promise.all([bill({ db: a.db, batchSize: 7 }), bill({ db: b.db, batchSize: 7 })]);
        expect(same.reduce((sum, result) => sum + result.invoices, 0)).toBe(30);
        await clearMoney(db());
        await db().deleteFrom("invoice_number_counters").execute();
        // Different locks: only the database's unique key and the counter's row lock keep them apart.
        const apart = await Promise.all([
          bill({ db: a.db, batchSize: 7, lockName: "test-a" }),
          bill({ db: b.db, batchSize: 7, lockName: "test-b" }),
        ]);
        expect(apart.every((result) => result.ran)).toBe(true);
        expect(apart.reduce((sum, result) => sum + result.invoices, 0)).toBe(30);
      } finally {
        await a.close();
        await b.close();
      }
      const invoices = await invoicesWithLines();
      expect(invoices).toHaveLength(30);
      expect(new Set(invoices.map((row) => row.plan_id)).size).toBe(30);
      expect(invoices.map((row) => row.number)).toEqual(
        Array.from({ length: 30 }, (_, i) => `2027-${String(i + 1).padStart(6, "0")}`),
      );
    },
  );
});

describe("the invoice e-mails of the run (docs/decisions/106)", () => {
  const MAIL: MailContext = {
    businessName: "Swift Scoop",
    phone: "(702) 555-0100",
    ownerEmail: "owner@example.com",
    siteUrl: "https://yards.example.com",
  };
  const billMailing = (options: Partial<BillingRunOptions> = {}) =>
    bill({ mailContext: MAIL, stripeConfigured: false, ...options });
  const invoiceMail = () =>
    db()
      .selectFrom("outbox")
      .select(["kind", "to_address", "reply_to", "subject", "text_body", "html_body", "dedupe_key", "related_id"])
      .where("kind", "=", "invoice_issued")
      .execute();
  const emailOf = async (customerId: string) =>
    (await db().selectFrom("users").select("email").where("id", "=", customerId).executeTakeFirstOrThrow()).email;
  const invoiceOf = (customerId: string) =>
    db().selectFrom("invoices").selectAll().where("customer_id", "=", customerId).executeTakeFirstOrThrow();

  beforeEach(async () => {
    await db().deleteFrom("outbox").where("kind", "=", "invoice_issued").execute();
    await db().deleteFrom("stripe_customers").execute();
  });

  it("queues one 'Your invoice' per new invoice, to its customer, keyed by the invoice; a second run queues none", async () => {
    const plans = [];
    for (let i = 0; i < 3; i += 1) plans.push(await createPlan({ weekdays: [2], start_date: "2027-01-04" }));
    const alone = await createCustomer();
    await addVisit({ customerId: alone, day: "2027-02-15", type: "Yard Refresh", status: "completed" });

    expect((await billMailing({ batchSize: 2 })).invoices).toBe(4);
    const invoices = await db().selectFrom("invoices").select(["id", "customer_id", "number"]).execute();
    const mail = await invoiceMail();
    expect(mail).toHaveLength(4);
    for (const invoice of invoices) {
      const own = mail.filter((m) => m.related_id === invoice.id);
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({
        to_address: await emailOf(invoice.customer_id),
        reply_to: "owner@example.com",
        dedupe_key: `invoice-issued:${invoice.id}`,
        subject: `Your invoice ${invoice.number} for March 2027`,
      });
    }
    expect(new Set(mail.map((m) => m.to_address)).size).toBe(4);

    expect((await billMailing({ batchSize: 2 })).invoices).toBe(0);
    expect(await invoiceMail()).toHaveLength(4);
  });

  it("says the amount, the due day, the footer and how to pay, with the invoice's link (Stripe off)", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    await billMailing();
    const invoice = await invoiceOf(plan.customer_id);
    const [mail] = await invoiceMail();
    const link = `https://yards.example.com/customer-dashboard/billing/${invoice.id}`;
    expect(mail.text_body).toBe(
      [
        `Your invoice ${invoice.number} for March 2027 is ready.`,
        "Amount due: $89.00, due Monday, March 1.",
        "To pay it, call us at (702) 555-0100.",
        "Thank you.",
        `See your invoice: ${link}`,
        "Questions? Call us at (702) 555-0100 or reply to this e-mail.",
        "Swift Scoop",
      ].join("\n\n"),
    );
    expect(mail.html_body).toContain(`<a href="${link}">See your invoice</a>`);
    expect(mail.text_body).not.toContain("We will charge");
  });

  it("says which card is charged on the due day when Stripe is on and a card is on file; else 'Pay now'", async () => {
    const withCard = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    const withoutCard = await createPlan({ weekdays: [4], start_date: "2027-01-04" });
    await db()
      .insertInto("stripe_customers")
      .values({
        user_id: withCard.customer_id,
        stripe_customer_id: "cus_mailtest",
        payment_method_id: "pm_mailtest",
        card_brand: "visa",
        card_last4: "4242",
        card_exp_month: 4,
        card_exp_year: 2030,
        card_added_at: new Date("2027-01-01T00:00:00Z"),
      })
      .execute();
    await billMailing({ stripeConfigured: true });
    const mail = await invoiceMail();
    const cardedId = (await invoiceOf(withCard.customer_id)).id;
    const otherId = (await invoiceOf(withoutCard.customer_id)).id;
    const carded = mail.find((m) => m.related_id === cardedId)!;
    const other = mail.find((m) => m.related_id === otherId)!;
    expect(carded.text_body).toContain(
      "Amount due: $89.00, due Monday, March 1.\n\nWe will charge Visa ending 4242 on Monday, March 1. You don't need to do anything.",
    );
    expect(other.text_body).toContain(
      'You can pay it by card on its page with "Pay now", or add a card on your Billing page.',
    );
    expect(other.text_body).not.toContain("We will charge");

    // The same card with Stripe off: it cannot be charged, so the e-mail does not say it will be.
    await db().deleteFrom("outbox").where("kind", "=", "invoice_issued").execute();
    await clearMoney(db());
    await billMailing({ stripeConfigured: false });
    const offId = (await invoiceOf(withCard.customer_id)).id;
    const off = (await invoiceMail()).find((m) => m.related_id === offId)!;
    expect(off.text_body).not.toContain("We will charge");
    expect(off.text_body).toContain("To pay it, call us at (702) 555-0100.");
  });

  it("an invoice its credits cover says nothing is due (and charges no card)", async () => {
    // April 2027 settles March, whose five Tuesdays were all skipped with notice: 5 × 17.80 = 89.00,
    // exactly the month and never more (docs/decisions/113).
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" });
    await db()
      .insertInto("stripe_customers")
      .values({
        user_id: plan.customer_id,
        stripe_customer_id: "cus_credits",
        payment_method_id: "pm_credits",
        card_brand: "visa",
        card_last4: "4242",
        card_exp_month: 4,
        card_exp_year: 2030,
        card_added_at: new Date("2027-01-01T00:00:00Z"),
      })
      .execute();
    for (const day of ["2027-03-02", "2027-03-09", "2027-03-16", "2027-03-23", "2027-03-30"]) {
      await addVisit({
        customerId: plan.customer_id,
        planId: plan.id,
        day,
        status: "skipped",
        skipReason: "customer",
        skippedAt: hoursBefore(at8("2027-03-02"), 72),
      });
    }
    await billMailing({ now: new Date("2027-04-01T16:00:00Z"), stripeConfigured: true });
    const invoice = await invoiceOf(plan.customer_id);
    expect(invoice).toMatchObject({ total_cents: 0, status: "paid" });
    const [mail] = await invoiceMail();
    expect(mail.text_body).toContain("Your credits cover it: nothing is due, and you don't need to do anything.");
    expect(mail.text_body).not.toContain("Amount due");
    expect(mail.text_body).not.toContain("We will charge");
  });

  it("a customer whose user is gone gets nothing, and nothing fails", async () => {
    const queued = await db()
      .transaction()
      .execute((trx) =>
        queueInvoiceEmails(
          trx,
          [
            {
              id: crypto.randomUUID(),
              plan_id: null,
              customer_id: crypto.randomUUID(),
              number: "2027-999999",
              total_cents: 100,
            },
          ],
          { period: "2027-03-01", dueOn: "2027-03-01", footer: null, context: MAIL, stripeConfigured: true },
        ),
      );
    expect(queued).toBe(0);
    expect(await invoiceMail()).toEqual([]);
  });
});
