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
  changePlanByOwner,
  createPlan,
  hoursBefore,
  nine,
  THRICE_CHOICE,
  TWICE_CHOICE,
  WEEKLY_CHOICE,
} from "../helpers/billing-fixtures";
import { clearMoney } from "../helpers/ledger";
import { cancelPlanWithCredit, previewCancellationCredit } from "~/features/billing/cancellation-credit.server";
import { formatCents } from "~/features/billing/money";
import { notePaymentFailed } from "~/features/billing/payment-recovery.server";
import type { RecoveryContext } from "~/features/billing/payment-recovery-emails.server";
import { cumulativeAdjustments, shareOfMonth } from "~/features/billing/prorations";

/**
 * Prorations (issue 34 item 5, docs/decisions/117): one regression test per rule, both sides.
 * Prices are the bundled catalogue's (changePlan reads it): weekly $89, twice-weekly $159,
 * thrice-weekly $225.
 */
const database = useAppDatabase();
const db = () => database.current.db;

beforeEach(async () => {
  await clearMoney(db());
  await db().deleteFrom("outbox").execute();
});

const WEEKLY = WEEKLY_CHOICE;
const TWICE = TWICE_CHOICE;
const THRICE = THRICE_CHOICE;

const change = (
  plan: { id: string; customer_id: string },
  to: { _id: string; name: string; visitsPerWeek: number },
  weekdays: number[],
  fromDate: string,
  now: Date,
  billingDay = 1,
) => changePlanByOwner(db(), plan, to, { weekdays, fromDate, now, billingDay });

const linesOf = (planId: string, month: string) =>
  db()
    .selectFrom("invoices as i")
    .innerJoin("invoice_lines as l", "l.invoice_id", "i.id")
    .select(["i.total_cents", "l.kind", "l.amount_cents", "l.description"])
    .where("i.plan_id", "=", planId)
    .where("i.period_month", "=", month)
    .orderBy("l.position")
    .execute();

describe("the shares of a month", () => {
  it("by slots use the month's slot count, by days the calendar days", () => {
    // March 2027 has five Tuesdays (2, 9, 16, 23, 30); three of them from the 10th.
    expect(shareOfMonth({ weekdays: [2], monthlyCents: 8900 }, "2027-03-01", "2027-03-10", "2027-03-31", "slots")).toBe(
      5340,
    );
    expect(shareOfMonth({ weekdays: [2], monthlyCents: 8900 }, "2027-03-01", "2027-03-15", "2027-03-31", "days")).toBe(
      4881,
    );
    // A month billed already adds the difference from the change on; one still to bill takes it off before.
    const months = [
      { month: "2027-03-01", billed: true, oldMonthlyCents: 8900 },
      { month: "2027-04-01", billed: false, oldMonthlyCents: 8900 },
    ];
    const next = { weekdays: [2], monthlyCents: 8900 };
    expect(
      cumulativeAdjustments({
        history: [],
        currentWeekdays: [2],
        next,
        startDate: "2027-01-04",
        fromDay: "2027-03-10",
        rule: "slots",
        months,
      }),
    ).toEqual([]);
    // Weekly to thrice weekly from the 10th: March (billed) owes 160.71 − 53.40; April, billed as the plan is, nothing.
    expect(
      cumulativeAdjustments({
        history: [],
        currentWeekdays: [2],
        next: { weekdays: [1, 3, 5], monthlyCents: 22500 },
        startDate: "2027-01-04",
        fromDay: "2027-03-10",
        rule: "slots",
        months,
      }),
    ).toEqual([{ month: "2027-03-01", amountCents: 10731 }]);
  });
});

describe("a plan change mid-month", () => {
  it("bills the old and the new plan by the slots each covers: an adjustment on the next invoice", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    // Wednesday March 10, at once: weekly (3 of 5 Tuesdays left: 53.40) to thrice weekly
    // (10 of 14 slots of Monday, Wednesday, Friday left: 160.71): 107.31 more for March.
    await change(plan, THRICE, [1, 3, 5], "2027-03-10", nine("2027-03-10"));
    const adjustments = await db().selectFrom("plan_adjustments").selectAll().where("plan_id", "=", plan.id).execute();
    expect(adjustments.map((a) => [String(a.month).slice(0, 10), a.amount_cents, a.invoice_id])).toEqual([
      ["2027-03-01", 10731, null],
    ]);

    await bill({ db: db(), now: nine("2027-04-01"), mailContext: MAIL_CONTEXT });
    const april = await linesOf(plan.id, "2027-04-01");
    expect(april.map((line) => [line.kind, line.amount_cents])).toEqual([
      ["plan_month", 22500],
      ["plan_change", 10731],
    ]);
    expect(april[0].total_cents).toBe(33231);
    expect(april[1].description).toBe(
      "Plan change to Triple Swift Service from Mar 10, 2027: March 2027, by the visits each plan covers",
    );
    // Billed once: May has no adjustment line, and the adjustment points at April's invoice.
    await bill({ db: db(), now: nine("2027-05-03"), mailContext: MAIL_CONTEXT });
    expect((await linesOf(plan.id, "2027-05-01")).map((line) => line.kind)).toEqual(["plan_month"]);
    const [billed] = await db()
      .selectFrom("plan_adjustments")
      .select("invoice_id")
      .where("plan_id", "=", plan.id)
      .execute();
    expect(billed.invoice_id).not.toBeNull();
  });

  it("a downgrade gives back the difference: a negative adjustment", async () => {
    const plan = await createPlan(
      { weekdays: [2, 4], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.twice-weekly" },
      db(),
    );
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    // Twice weekly (159.00) to weekly (89.00) on Wednesday March 10: from then 6 of 9 Tue/Thu slots
    // (106.00) and 3 of 5 Tuesdays (53.40): 52.60 back.
    await change(plan, WEEKLY, [2], "2027-03-10", nine("2027-03-10"));
    await bill({ db: db(), now: nine("2027-04-01"), mailContext: MAIL_CONTEXT });
    const april = await linesOf(plan.id, "2027-04-01");
    expect(april.map((line) => [line.kind, line.amount_cents])).toEqual([
      ["plan_month", 8900],
      ["plan_change", -5260],
    ]);
  });

  it("a change that leaves the price and days as they are adjusts nothing", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    await change(plan, WEEKLY, [2], "2027-03-10", nine("2027-03-10"));
    expect(await db().selectFrom("plan_adjustments").selectAll().where("plan_id", "=", plan.id).execute()).toEqual([]);
    await bill({ db: db(), now: nine("2027-04-01"), mailContext: MAIL_CONTEXT });
    expect((await linesOf(plan.id, "2027-04-01")).map((line) => line.kind)).toEqual(["plan_month"]);
  });
});

describe("a dated change", () => {
  it("from the 15th bills by the days each plan covers", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    // Made on March 10, from March 15: 17 of March's 31 days at 159.00 (87.19) instead of 89.00 (48.81).
    await change(plan, TWICE, [2, 4], "2027-03-15", nine("2027-03-10"));
    await bill({ db: db(), now: nine("2027-04-01"), mailContext: MAIL_CONTEXT });
    expect((await linesOf(plan.id, "2027-04-01")).map((line) => [line.kind, line.amount_cents])).toEqual([
      ["plan_month", 15900],
      ["plan_change", 3838],
    ]);
  });

  it("from a day of a month not billed yet takes the new price off the days before it", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    // Made on March 10, from April 5: April is billed at 159.00, but its first 4 of 30 days were
    // weekly: 11.87 instead of 21.20, so 9.33 less.
    await change(plan, TWICE, [2, 4], "2027-04-05", nine("2027-03-10"));
    await bill({ db: db(), now: nine("2027-04-01"), mailContext: MAIL_CONTEXT });
    expect((await linesOf(plan.id, "2027-04-01")).map((line) => [line.kind, line.amount_cents])).toEqual([
      ["plan_month", 15900],
      ["plan_change", -933],
    ]);
  });
});

describe("old skips", () => {
  it("stay credited at the rate they were billed at", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    // The Tuesday March 9 visit was skipped with notice under the weekly plan (89.00 ÷ 5 = 17.80).
    await addVisit(db(), {
      customerId: plan.customer_id,
      planId: plan.id,
      day: "2027-03-09",
      status: "skipped",
      skipReason: "customer",
      skippedAt: hoursBefore(at8("2027-03-09"), 72),
    });
    await change(plan, THRICE, [1, 3, 5], "2027-03-10", nine("2027-03-10"));
    await bill({ db: db(), now: nine("2027-04-01"), mailContext: MAIL_CONTEXT });
    const credit = (await linesOf(plan.id, "2027-04-01")).find((line) => line.kind === "skip_credit");
    // Not 225.00 ÷ 14 (16.07), nor March's bill after the change over its new slots.
    expect(credit?.amount_cents).toBe(-1780);
  });

  it("and a cancellation's credit note gives them back at that rate too (one home: visit-credits.ts)", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const skipped = await addVisit(db(), {
      customerId: plan.customer_id,
      planId: plan.id,
      day: "2027-03-09",
      status: "skipped",
      skipReason: "customer",
      skippedAt: hoursBefore(at8("2027-03-09"), 72),
    });
    await change(plan, THRICE, [1, 3, 5], "2027-03-10", nine("2027-03-10"));
    const input = {
      planId: plan.id,
      customerId: plan.customer_id,
      actor: { id: plan.customer_id, isAdmin: false },
      now: nine("2027-03-11"),
      rules: { changeNoticeHours: 24, longestPauseDays: 90, horizonDays: 28, firstVisitTime: "08:00", closedDays: [] },
      billing: { rules: RULES, catalogue: CATALOGUE, addOns: ADD_ONS },
    };
    const preview = await previewCancellationCredit(db(), input);
    const { creditCents } = await cancelPlanWithCredit(db(), input);
    expect(formatCents(creditCents)).toBe(preview.amount);
    const line = await db()
      .selectFrom("credit_note_lines")
      .select("amount_cents")
      .where("visit_id", "=", skipped)
      .executeTakeFirstOrThrow();
    // The weekly terms of 9 March (89.00 ÷ 5), as the run's invoice line would give.
    expect(line.amount_cents).toBe(1780);
  });
});

describe("billing day 15", () => {
  const rules = { ...RULES, billingDay: 15 };

  it("a plan started after the billing date gets its current-month remainder billed", async () => {
    // Billing has run here before (an older plan's January invoice, made on December 15).
    const older = await createPlan({ weekdays: [3], start_date: "2026-12-01" }, db());
    await bill({ db: db(), rules, now: nine("2026-12-15"), mailContext: MAIL_CONTEXT });
    expect(await linesOf(older.id, "2027-01-01")).toHaveLength(1);

    // Started on Wednesday January 20, after January's billing date (December 15) and February's
    // (January 15): one of January's four Tuesdays is left (26th): 22.25, and February in full.
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-20" }, db());
    await bill({ db: db(), rules, now: nine("2027-01-20"), mailContext: MAIL_CONTEXT });
    expect((await linesOf(plan.id, "2027-01-01")).map((line) => [line.kind, line.amount_cents])).toEqual([
      ["prorated_month", 2225],
    ]);
    expect((await linesOf(plan.id, "2027-02-01")).map((line) => [line.kind, line.amount_cents])).toEqual([
      ["plan_month", 8900],
    ]);
    // The older plan gets no second January invoice, and a second run changes nothing.
    await bill({ db: db(), rules, now: nine("2027-01-21"), mailContext: MAIL_CONTEXT });
    const invoices = await db().selectFrom("invoices").select(["plan_id", "period_month"]).execute();
    expect(invoices.filter((i) => i.plan_id === plan.id)).toHaveLength(2);
    expect(invoices.filter((i) => i.plan_id === older.id)).toHaveLength(2);
  });

  it("a declined Pay now before the invoice's due date starts no retries and no pause countdown", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), rules, now: nine("2027-02-16"), mailContext: MAIL_CONTEXT });
    // March's invoice, issued February 16, is due March 1.
    const invoice = await db()
      .selectFrom("invoices")
      .selectAll()
      .where("plan_id", "=", plan.id)
      .where("period_month", "=", "2027-03-01")
      .executeTakeFirstOrThrow();
    expect(String(invoice.due_on).slice(0, 10)).toBe("2027-03-01");
    const context: RecoveryContext = {
      ...MAIL_CONTEXT,
      graceDays: 7,
      planRules: {
        changeNoticeHours: 24,
        longestPauseDays: 90,
        horizonDays: 28,
        firstVisitTime: "08:00",
        closedDays: [],
      },
    };
    const early = await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Your card was declined.",
      paymentIntentId: "pi_early_decline",
      payNow: true,
      now: nine("2027-02-20"),
      context,
    });
    expect(early.recorded).toBe(false);
    const after = await db().selectFrom("invoices").selectAll().where("id", "=", invoice.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ first_failed_at: null, next_charge_on: null, charge_attempts: 0, status: "open" });
    expect(await db().selectFrom("invoice_charge_failures").selectAll().execute()).toHaveLength(0);
    expect(await db().selectFrom("outbox").selectAll().where("kind", "=", "payment_failed").execute()).toHaveLength(0);

    // On its due day a decline is a missed payment again: retried, counted down, e-mailed.
    const due = await notePaymentFailed(db(), {
      invoiceId: invoice.id,
      reason: "Your card was declined.",
      paymentIntentId: "pi_due_decline",
      payNow: true,
      now: nine("2027-03-01"),
      context,
    });
    expect(due.recorded).toBe(true);
    const failed = await db().selectFrom("invoices").selectAll().where("id", "=", invoice.id).executeTakeFirstOrThrow();
    expect(failed.first_failed_at).not.toBeNull();
    expect(await db().selectFrom("outbox").selectAll().where("kind", "=", "payment_failed").execute()).toHaveLength(1);
  });
});
