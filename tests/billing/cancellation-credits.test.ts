import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import {
  ADD_ONS,
  CATALOGUE,
  MAIL_CONTEXT,
  RULES,
  addVisit,
  at8,
  bill,
  createPlan,
  hoursBefore,
  PLAN_RULES,
} from "../helpers/billing-fixtures";
import { createUser } from "../helpers/factories";
import { clearMoney, ledgerSum } from "../helpers/ledger";
import { planVisitsOf, WEEKLY_PLAN } from "../helpers/plan-seed";
import type { PlanRules } from "~/content/types";
import {
  cancelPlanWithCredit,
  previewCancellationCredit,
  type CancellationBilling,
} from "~/features/billing/cancellation-credit.server";
import { loadCustomerBilling } from "~/features/billing/billing-pages.server";
import { recordPayment, recordRefund } from "~/features/billing/payments.server";
import { CLOSED_DAY_CANCELLED_DETAIL } from "~/features/plans/plan-constants";
import {
  holdPlanForPayment,
  pausePlan,
  PlanChangeError,
  skipVisit,
  startPlan,
} from "~/features/plans/plan-changes.server";
import { applyVisitAction } from "~/features/visits/visit-workflow.server";

/**
 * Credits for visits the customer does not get (issue 34 item 3, docs/decisions/115): a
 * cancellation with notice gives its credit back at once as one credit note, kept as credit on
 * file; the business's own cancellations, weather misses and payment holds are credited on the
 * next invoice; all at the one rate of visit-credits.ts. Real workflow functions, a fixed clock.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const planRules: PlanRules = PLAN_RULES;
const billing: CancellationBilling = { rules: RULES, catalogue: CATALOGUE, addOns: ADD_ONS };
/** Monday 1 March 2027, 10:00 in Las Vegas. */
const MONDAY = new Date("2027-03-01T18:00:00Z");

beforeEach(async () => {
  await clearMoney(db());
  await db().deleteFrom("outbox").execute();
});

let key = 0;
const pay = (invoiceId: string, amountCents: number, now: Date) =>
  recordPayment(db(), {
    invoiceId,
    method: "cash",
    amountCents,
    paidOn: "2027-03-05",
    note: null,
    recordedBy: null,
    idempotencyKey: `cancel-test-${(key += 1)}`,
    now,
    context: MAIL_CONTEXT,
  });

const invoicesOf = (customerId: string) =>
  db().selectFrom("invoices").selectAll().where("customer_id", "=", customerId).orderBy("period_month").execute();
const creditNotesOf = (customerId: string) =>
  db().selectFrom("credit_notes").selectAll().where("customer_id", "=", customerId).execute();
const linesOfNote = (noteId: string) =>
  db().selectFrom("credit_note_lines").selectAll().where("credit_note_id", "=", noteId).orderBy("position").execute();
const linesOfInvoice = (invoiceId: string) =>
  db().selectFrom("invoice_lines").selectAll().where("invoice_id", "=", invoiceId).orderBy("position").execute();

/** A customer's weekly Tuesday plan (89.00 a month) from 1 March 2027, started by an admin; March billed. */
async function billedTuesdayPlan() {
  const admin = await createUser(db(), { admin: true, fullName: "Owner" });
  const customer = await createUser(db(), { fullName: "Casey Customer" });
  const plan = await startPlan(db(), {
    customerId: customer.id,
    cataloguePlan: WEEKLY_PLAN,
    weekdays: [2],
    dogCount: 1,
    yardSize: "medium",
    startDate: "2027-03-01",
    notes: null,
    actorId: admin.id,
    now: MONDAY,
    rules: planRules,
  });
  await bill({ db: db(), now: MONDAY, mailContext: MAIL_CONTEXT });
  const [march] = await invoicesOf(customer.id);
  expect(march).toMatchObject({ period_month: "2027-03-01", total_cents: 8900 });
  return { admin, customer, plan, march };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlanChangeError);
  return error as PlanChangeError;
}

describe("a plan cancelled with notice", () => {
  it("gives back the paid visits it ends and the month's uncredited skip as one credit note, shown first, applied to what is owed, once", async () => {
    const { customer, plan, march } = await billedTuesdayPlan();
    const asCustomer = { id: customer.id, isAdmin: false };
    const visits = await planVisitsOf(db(), plan.id);
    // The customer skips 9 March with notice, pays 50.00 of March's 89.00, and cancels on
    // Wednesday 10 March: 16, 23 and 30 March (a slot past the visits made) are cancelled.
    await skipVisit(db(), {
      visitId: visits[1].id,
      customerId: customer.id,
      actor: asCustomer,
      now: MONDAY,
      rules: planRules,
    });
    await pay(march.id, 5000, MONDAY);
    const now = new Date("2027-03-10T18:00:00Z");
    const input = { planId: plan.id, customerId: customer.id, actor: asCustomer, now, rules: planRules, billing };

    // March has five Tuesdays: 89.00 ÷ 5 = 17.80 a visit, four of them back: 71.20, of which 39.00
    // pays what is owed.
    const preview = await previewCancellationCredit(db(), input);
    expect(preview).toEqual({ amount: "$71.20", visits: 4, pays: "$39.00", bills: null });
    // Someone else's plan: nothing to show.
    const intruder = await createUser(db());
    expect(await previewCancellationCredit(db(), { ...input, customerId: intruder.id })).toMatchObject({
      amount: null,
    });

    const { plan: cancelled, creditCents } = await cancelPlanWithCredit(db(), input);
    expect(cancelled).toMatchObject({ status: "cancelled", last_visit_date: "2027-03-02" });
    expect(creditCents).toBe(7120);
    const [note] = await creditNotesOf(customer.id);
    expect(note).toMatchObject({ reason: "cancellation", paid_out: "credit", amount_cents: 7120, invoice_id: null });
    expect(note.number).toMatch(/^CN-2027-\d{7}$/);
    const lines = await linesOfNote(note.id);
    expect(lines.map((line) => [line.slot, line.amount_cents, line.description])).toEqual([
      ["2027-03-09", 1780, "Credit: visit of March 9 skipped with notice"],
      ["2027-03-16", 1780, "Credit: visit of March 16 cancelled with the plan"],
      ["2027-03-23", 1780, "Credit: visit of March 23 cancelled with the plan"],
      ["2027-03-30", 1780, "Credit: visit of March 30 cancelled with the plan"],
    ]);
    expect(lines.map((line) => line.visit_id === null)).toEqual([false, false, false, true]);
    // Applied to the 39.00 owed; 32.20 stays as credit on file.
    const [paid] = await invoicesOf(customer.id);
    expect(paid).toMatchObject({ status: "paid", paid_cents: 8900, credit_applied_cents: 3900 });
    expect(await ledgerSum(db(), customer.id)).toBe(8900 - 5000 - 7120);
    const mail = await db()
      .selectFrom("outbox")
      .select("text_body")
      .where("related_id", "=", plan.id)
      .where("kind", "=", "plan_customer")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`$71.20 comes back to you (credit note ${note.number}): $32.20 is kept`);
    // The customer's Billing page shows the credit on file and the credit note, visit by visit.
    const page = await loadCustomerBilling(customer.id, now);
    expect(page).toMatchObject({ owes: false, credit: "$32.20" });
    expect(page.creditNotes).toEqual([
      expect.objectContaining({
        number: note.number,
        reason: "Cancellation with notice",
        amount: "$71.20",
        paidOut: "Credit on file",
        lines: expect.arrayContaining([
          { description: "Credit: visit of March 30 cancelled with the plan", amount: "$17.80" },
        ]),
      }),
    ]);
    // Another customer sees none of it.
    expect((await loadCustomerBilling(intruder.id, now)).creditNotes).toEqual([]);

    // Once: a second cancellation is refused, and the billing run gives nothing more.
    expect((await refusal(cancelPlanWithCredit(db(), input))).status).toBe(409);
    await bill({ db: db(), now: MONDAY, mailContext: MAIL_CONTEXT });
    await bill({ db: db(), now: new Date("2027-04-01T16:00:00Z"), mailContext: MAIL_CONTEXT });
    expect(await invoicesOf(customer.id)).toHaveLength(1);
    expect(await creditNotesOf(customer.id)).toHaveLength(1);
    expect(await ledgerSum(db(), customer.id)).toBe(-3220);

    // "Refund" of the credit on file to the customer: it comes out of the credit, not on top of it.
    const payment = await db()
      .selectFrom("payments")
      .select("id")
      .where("invoice_id", "=", march.id)
      .executeTakeFirstOrThrow();
    await recordRefund(db(), {
      invoiceId: march.id,
      paymentId: payment.id,
      amountCents: 3220,
      refundedOn: "2027-03-11",
      note: null,
      recordedBy: null,
      idempotencyKey: "cancel-test-refund",
      now,
    });
    expect(await ledgerSum(db(), customer.id)).toBe(0);
    expect(await creditNotesOf(customer.id)).toHaveLength(1);
  });

  it("credits nothing for visits cancelled with less notice than the Terms ask (an admin's cancellation the evening before)", async () => {
    const { admin, customer, plan } = await billedTuesdayPlan();
    // Monday 29 March, 18:00: the visit of Tuesday 30 March is 14 hours away.
    const now = new Date("2027-03-30T02:00:00Z");
    const input = {
      planId: plan.id,
      customerId: customer.id,
      actor: { id: admin.id, isAdmin: true },
      now,
      rules: planRules,
      billing,
    };
    expect(await previewCancellationCredit(db(), input)).toEqual({ amount: null, visits: 0, pays: null, bills: null });
    const { creditCents } = await cancelPlanWithCredit(db(), input);
    expect(creditCents).toBe(0);
    expect(await creditNotesOf(customer.id)).toHaveLength(0);
    expect(await db().selectFrom("credit_note_lines").select("id").execute()).toHaveLength(0);
    expect(await ledgerSum(db(), customer.id)).toBe(8900);
  });

  it("never gives back more than the month was billed (nine visits of a 159.00 month at 17.67 each)", async () => {
    // Billing day 15: March (twice weekly, 159.00) is billed on 15 February; the plan is cancelled
    // on Friday 26 February, before any March visit.
    const rules = { ...RULES, billingDay: 15 };
    const plan = await createPlan(
      { weekdays: [2, 4], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.twice-weekly" },
      db(),
    );
    await bill({ db: db(), rules, now: new Date("2027-02-15T18:00:00Z"), mailContext: MAIL_CONTEXT });
    const [march] = await invoicesOf(plan.customer_id);
    expect(march).toMatchObject({ period_month: "2027-03-01", total_cents: 15900 });
    const input = {
      planId: plan.id,
      customerId: plan.customer_id,
      actor: { id: plan.customer_id, isAdmin: false },
      now: new Date("2027-02-26T18:00:00Z"),
      rules: planRules,
      billing: { ...billing, rules },
    };
    expect((await previewCancellationCredit(db(), input)).amount).toBe("$159.00");
    const { creditCents } = await cancelPlanWithCredit(db(), input);
    expect(creditCents).toBe(15900);
    const [note] = await creditNotesOf(plan.customer_id);
    const lines = await linesOfNote(note.id);
    expect(lines).toHaveLength(9);
    expect(lines.slice(0, 8).every((line) => line.amount_cents === 1767)).toBe(true);
    expect(lines[8].amount_cents).toBe(15900 - 8 * 1767);
    // The open March invoice is paid by it: nothing owed, nothing on file.
    expect(await ledgerSum(db(), plan.customer_id)).toBe(0);
    await bill({ db: db(), rules, now: new Date("2027-03-15T18:00:00Z"), mailContext: MAIL_CONTEXT });
    expect(await invoicesOf(plan.customer_id)).toHaveLength(1);
  });
});

describe("the business's own cancellations", () => {
  it("credits an admin's Cancel Visit, a closed day's cancellation and a weather miss on the next invoice, whatever the notice, once", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    const customerId = plan.customer_id;
    const admin = await createUser(db(), { admin: true });
    const cancelled = await addVisit(db(), { customerId, planId: plan.id, day: "2027-02-02", status: "scheduled" });
    const weather = await addVisit(db(), { customerId, planId: plan.id, day: "2027-02-09", status: "scheduled" });
    const gate = await addVisit(db(), { customerId, planId: plan.id, day: "2027-02-16", status: "scheduled" });
    // An hour before each visit: no notice needed from the business.
    expect(
      (await applyVisitAction(cancelled, { action: "cancel" }, admin.id, hoursBefore(at8("2027-02-02"), 1))).kind,
    ).toBe("done");
    expect(
      (await applyVisitAction(weather, { action: "miss", reason: "weather" }, admin.id, at8("2027-02-09"))).kind,
    ).toBe("done");
    expect(
      (await applyVisitAction(gate, { action: "miss", reason: "locked_gate" }, admin.id, at8("2027-02-16"))).kind,
    ).toBe("done");
    // The generator cancelled 23 February: its day closed, no weekday open to move to.
    const closed = await addVisit(db(), { customerId, planId: plan.id, day: "2027-02-23", status: "cancelled" });
    await db()
      .insertInto("service_events")
      .values({
        service_id: closed,
        kind: "status",
        from_status: "scheduled",
        to_status: "cancelled",
        detail: `Rodeo Day is a closed day, ${CLOSED_DAY_CANCELLED_DETAIL}`,
      })
      .execute();

    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const [invoice] = await invoicesOf(customerId);
    // February (billed by hand before billing began here, 89.00) had four Tuesdays: 22.25 each.
    expect((await linesOfInvoice(invoice.id)).map((line) => [line.kind, line.amount_cents, line.description])).toEqual([
      ["plan_month", 8900, "Weekly Swift Service, March 2027"],
      ["skip_credit", -2225, "Credit: visit of February 2 cancelled by us"],
      ["skip_credit", -2225, "Credit: visit of February 9 missed for weather"],
      ["skip_credit", -2225, "Credit: visit of February 23 cancelled by us"],
    ]);
    expect(invoice.total_cents).toBe(8900 - 3 * 2225);

    // Running the billing again gives nothing more.
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    expect(await invoicesOf(customerId)).toHaveLength(1);
    expect(await linesOfInvoice(invoice.id)).toHaveLength(4);
  });

  it("does not credit a weather miss the business came back for (a return visit)", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    const admin = await createUser(db(), { admin: true });
    const weather = await addVisit(db(), {
      customerId: plan.customer_id,
      planId: plan.id,
      day: "2027-02-09",
      status: "scheduled",
    });
    await applyVisitAction(weather, { action: "miss", reason: "weather" }, admin.id, at8("2027-02-09"));
    const back = await applyVisitAction(
      weather,
      { action: "return-visit", serviceDate: at8("2027-02-10") },
      admin.id,
      at8("2027-02-09"),
    );
    expect(back.kind).toBe("done");
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const [invoice] = await invoicesOf(plan.customer_id);
    expect(await linesOfInvoice(invoice.id)).toHaveLength(1);
  });

  it("takes a weather miss's credit back, once, when the business makes the visit up after it was credited", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    const admin = await createUser(db(), { admin: true });
    const missed = async (day: string, reason: "weather" | "locked_gate") => {
      const visit = await addVisit(db(), { customerId: plan.customer_id, planId: plan.id, day, status: "scheduled" });
      await applyVisitAction(visit, { action: "miss", reason }, admin.id, at8(day));
      return visit;
    };
    const weather = await missed("2027-02-09", "weather");
    const gate = await missed("2027-02-16", "locked_gate");
    // March's invoice credits the weather miss (February: 89.00 ÷ 4), not the locked gate.
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const [march] = await invoicesOf(plan.customer_id);
    expect((await linesOfInvoice(march.id)).map((line) => [line.kind, line.amount_cents])).toEqual([
      ["plan_month", 8900],
      ["skip_credit", -2225],
    ]);
    // We come back for both on 3 March and make them.
    for (const visit of [weather, gate]) {
      const back = await applyVisitAction(
        visit,
        { action: "return-visit", serviceDate: at8("2027-03-03") },
        admin.id,
        at8("2027-03-02"),
      );
      if (back.kind !== "done" || !back.returnVisit) throw new Error("no return visit");
      expect(
        (await applyVisitAction(back.returnVisit.id, { action: "complete" }, admin.id, at8("2027-03-03"))).kind,
      ).toBe("done");
    }

    const april1 = new Date("2027-04-01T16:00:00Z");
    await bill({ db: db(), now: april1, mailContext: MAIL_CONTEXT });
    await bill({ db: db(), now: april1, mailContext: MAIL_CONTEXT });
    const april = (await invoicesOf(plan.customer_id)).filter((invoice) => invoice.period_month === "2027-04-01");
    expect(april).toHaveLength(1);
    // The credit comes back as a new line (the March line stays as it was); the gate's visit bills nothing.
    expect((await linesOfInvoice(april[0].id)).map((line) => [line.kind, line.amount_cents, line.description])).toEqual(
      [
        ["plan_month", 8900, "Weekly Swift Service, April 2027"],
        ["one_time_service", 2225, "Return visit on Mar 3, 2027 for the visit of Feb 9, 2027: its credit taken back"],
      ],
    );
    expect((await linesOfInvoice(march.id)).map((line) => line.amount_cents)).toEqual([8900, -2225]);
    expect(await ledgerSum(db(), plan.customer_id)).toBe(8900 - 2225 + 8900 + 2225);
    // May bills the month alone: taken back once.
    await bill({ db: db(), now: new Date("2027-05-03T16:00:00Z"), mailContext: MAIL_CONTEXT });
    const may = (await invoicesOf(plan.customer_id)).find((invoice) => invoice.period_month === "2027-05-01")!;
    expect((await linesOfInvoice(may.id)).map((line) => line.kind)).toEqual(["plan_month"]);
  });
});

describe("a plan held for payment", () => {
  it("credits the held visits on the next invoice, the customer's own pause days under the hold too", async () => {
    const { customer, plan } = await billedTuesdayPlan();
    const asCustomer = { id: customer.id, isAdmin: false };
    // The customer pauses 15 to 20 March; on 10 March the plan is held for an unpaid invoice: the
    // paused visit of 16 March is held too, and keeps its credit.
    await pausePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      actor: asCustomer,
      now: MONDAY,
      rules: planRules,
      from: "2027-03-15",
      until: "2027-03-20",
    });
    const heldAt = new Date("2027-03-10T18:00:00Z");
    await db()
      .transaction()
      .execute((trx) => holdPlanForPayment(trx, { planId: plan.id, now: heldAt, detail: "Held", rules: planRules }));
    const states = (await planVisitsOf(db(), plan.id)).map((visit) => [visit.day, visit.skip_reason]);
    expect(states).toEqual([
      ["2027-03-02", null],
      ["2027-03-09", null],
      ["2027-03-16", "payment_overdue"],
      ["2027-03-23", "payment_overdue"],
      ["2027-03-30", "payment_overdue"],
      ["2027-04-06", "payment_overdue"],
    ]);

    await bill({ db: db(), now: new Date("2027-04-01T16:00:00Z"), mailContext: MAIL_CONTEXT });
    const april = (await invoicesOf(customer.id)).find((invoice) => invoice.period_month === "2027-04-01")!;
    const credits = (await linesOfInvoice(april.id)).filter((line) => line.kind === "skip_credit");
    expect(credits.map((line) => [line.amount_cents, line.description])).toEqual([
      [-1780, "Credit: visit of March 16 held for payment"],
      [-1780, "Credit: visit of March 23 held for payment"],
      [-1780, "Credit: visit of March 30 held for payment"],
    ]);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from invoice_lines where kind = 'skip_credit'`.execute(db());
    await bill({ db: db(), now: new Date("2027-04-01T16:00:00Z"), mailContext: MAIL_CONTEXT });
    const again = await sql<{
      n: number;
    }>`select count(*)::int as n from invoice_lines where kind = 'skip_credit'`.execute(db());
    expect(again.rows[0].n).toBe(rows[0].n);
  });
});
