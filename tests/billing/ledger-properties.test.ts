import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { ADD_ONS, CATALOGUE, RULES, addVisit, at8, bill, createPlan, hoursBefore } from "../helpers/billing-fixtures";
import { createUser } from "../helpers/factories";
import { addMonths, billingDateOf, lastDayOf, monthOf } from "~/features/billing/billing-rules";
import { cancelPlanWithCredit, previewCancellationCredit } from "~/features/billing/cancellation-credit.server";
import { formatCents } from "~/features/billing/money";
import type { MailContext } from "~/features/billing/payment-recovery-emails.server";
import {
  BillingError,
  markInvoiceUncollectible,
  recordPayment,
  recordRefund,
  reversePayment,
  voidInvoice,
} from "~/features/billing/payments.server";
import { shareOfMonth, type ProrationRule, type Terms } from "~/features/billing/prorations";
import { recordDisputeLost } from "~/features/billing/stripe-disputes.server";
import { PlanChangeError, changePlan } from "~/features/plans/plan-changes.server";
import { slotDays } from "~/features/plans/plan-schedule";
import { addDays, businessToday } from "~/features/visits/visit-dates";

/**
 * The Terms' money promises as properties (issue 34, docs/decisions/113), over random sequences
 * of months and events run through the real workflow on a real database: months billed with
 * random skips and one-time services, payments by hand and by card (some beyond what is owed),
 * refunds, reversals, disputes lost (replayed), voids and write-offs, visits the business
 * cancelled, missed for weather or held for payment (docs/decisions/115), the plan cancelled
 * mid-month, and plan changes at once and from a later day (docs/decisions/117). After every step:
 *  - the balance is the ledger's sum, and equals what open invoices owe less credit on file, with
 *    never both at once (credit is used at once), and never negative credit;
 *  - no entry ever changes (the ledger so far is a prefix of the ledger after);
 *  - every amount is an integer number of cents;
 *  - a refund never makes an invoice owed again;
 *  - no month's visit credits (invoice lines and credit note lines) exceed what it was billed;
 *  - a cancellation gives what its preview said, as one credit note whose lines add up to it;
 *  - every completed one-time service is on exactly one invoice;
 *  - a void gives back what the invoice credited (docs/decisions/120), and a cancelled plan's
 *    change adjustments are settled by its cancellation: none is ever left unbilled;
 *  - running the billing run again changes nothing;
 *  - a refusal stores nothing;
 *  - a lost dispute takes back at most what the bank took and what was left of the payment,
 *    moves the balance by that less what is written off with a written-off invoice (never by
 *    Stripe's fee), and reopens no voided or written-off invoice (docs/decisions/121);
 *  - plan changes at once and from a later day (docs/decisions/117): no month bills a plan more
 *    than its price for the slots (or, for a dated change, the days) each of its terms covered;
 * with billing day 1 and with billing day 15.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const mailContext: MailContext = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://localhost:3000",
};

/** What became of a month's visit: made, or skipped with notice, or not made by the business. */
type VisitFate = "made" | "skip" | "held" | "cancelled" | "weather" | "gate";

type Step =
  | { kind: "month"; fates: VisitFate[]; service: boolean }
  | { kind: "cancel"; days: number }
  | { kind: "pay"; pick: number; share: number; card: boolean }
  | { kind: "refund"; pick: number; share: number }
  | { kind: "reverse"; pick: number; share: number }
  | { kind: "disputeLost"; pick: number; share: number }
  | { kind: "void"; pick: number }
  | { kind: "writeOff"; pick: number }
  | { kind: "change"; to: number; after: number }
  | { kind: "datedChange"; to: number; after: number; ahead: number };

/** The bundled catalogue's subscriptions (changePlan prices a change from it), for one dog. */
const PLANS = [
  { choice: { _id: "servicePlan.weekly", name: "Weekly Swift Service", visitsPerWeek: 1 }, weekdays: [2], cents: 8900 },
  {
    choice: { _id: "servicePlan.twice-weekly", name: "Twice-Weekly Swift Service", visitsPerWeek: 2 },
    weekdays: [2, 4],
    cents: 15900,
  },
  {
    choice: { _id: "servicePlan.thrice-weekly", name: "Triple Swift Service", visitsPerWeek: 3 },
    weekdays: [1, 3, 5],
    cents: 22500,
  },
];
const planRules = {
  changeNoticeHours: 24,
  longestPauseDays: 90,
  horizonDays: 28,
  firstVisitTime: "08:00",
  closedDays: [],
};
/** The terms the test itself knows the plan had: from a day on, and how the change is prorated. */
type Segment = { from: string; terms: Terms; rule: ProrationRule };

const share = fc.integer({ min: 1, max: 120 });
const pick = fc.nat({ max: 20 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("month" as const),
      fates: fc.array(fc.constantFrom<VisitFate>("made", "made", "skip", "held", "cancelled", "weather", "gate"), {
        maxLength: 5,
      }),
      service: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("cancel" as const), days: fc.integer({ min: 0, max: 27 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("pay" as const), pick, share, card: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("refund" as const), pick, share }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("reverse" as const), pick, share }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("disputeLost" as const), pick, share }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("void" as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("writeOff" as const), pick }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant("change" as const), to: fc.nat({ max: 2 }), after: fc.nat({ max: 20 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("datedChange" as const),
      to: fc.nat({ max: 2 }),
      after: fc.nat({ max: 20 }),
      ahead: fc.integer({ min: 1, max: 20 }),
    }),
    weight: 1,
  },
);

let sequence = 0;

async function ledgerOf(customerId: string) {
  return db()
    .selectFrom("ledger_entries")
    .select(["id", "kind", "amount_cents", "entry_key", "occurred_on"])
    .where("customer_id", "=", customerId)
    .orderBy("id")
    .execute();
}

async function invoicesOf(customerId: string) {
  return db().selectFrom("invoices").selectAll().where("customer_id", "=", customerId).orderBy("number").execute();
}

async function checkBooks(customerId: string, planId: string, segments: readonly Segment[] = []) {
  const entries = await ledgerOf(customerId);
  const invoices = await invoicesOf(customerId);
  for (const entry of entries) expect(Number.isInteger(entry.amount_cents)).toBe(true);
  const balance = entries.reduce((sum, entry) => sum + entry.amount_cents, 0);
  const owed = invoices
    .filter((invoice) => invoice.status === "open")
    .reduce((sum, invoice) => sum + invoice.total_cents - invoice.paid_cents, 0);
  const credit = owed - balance;
  expect(credit, "credit on file is never negative").toBeGreaterThanOrEqual(0);
  expect(credit === 0 || owed === 0, `owed ${owed} with ${credit} of credit on file`).toBe(true);
  for (const invoice of invoices) {
    for (const cents of [
      invoice.total_cents,
      invoice.paid_cents,
      invoice.credit_applied_cents,
      invoice.refunded_cents,
    ]) {
      expect(Number.isInteger(cents)).toBe(true);
    }
    if (invoice.status === "open") expect(invoice.paid_cents).toBeLessThan(invoice.total_cents);
  }
  // No month's credits above its bill (with a plan change's adjustments of it), and no month
  // billed above the price of the slots (or days) each of its terms covered.
  const { rows } = await sql<{ month: string; billed: string; credited: string; voided: string | null }>`
    select b.month::text, b.billed + coalesce(a.adjusted, 0) as billed, coalesce(c.credited, 0) as credited,
      a.voided from (
      select i.period_month as month, sum(l.amount_cents) as billed from invoices i
      join invoice_lines l on l.invoice_id = i.id
      where i.plan_id = ${planId} and l.kind in ('plan_month', 'prorated_month') and i.status <> 'void'
      group by i.period_month
    ) b left join (
      select a.month, sum(a.amount_cents) filter (where ai.id is null or ai.status <> 'void' or g.id is not null) as adjusted,
        count(*) filter (where ai.status = 'void' and g.id is null) as voided
      from plan_adjustments a left join invoices ai on ai.id = a.invoice_id
      left join credit_note_lines g on g.adjustment_id = a.id
      where a.plan_id = ${planId} group by a.month
    ) a on a.month = b.month left join (
      select month, sum(cents) as credited from (
        select date_trunc('month', s.plan_slot)::date as month, -l.amount_cents as cents
        from invoice_lines l join services s on s.id = l.visit_id join invoices li on li.id = l.invoice_id
        where l.kind = 'skip_credit' and s.plan_id = ${planId} and li.status <> 'void'
        union all
        select c.month, c.amount_cents from credit_note_lines c where c.plan_id = ${planId} and c.adjustment_id is null
      ) given group by 1
    ) c on c.month = b.month`.execute(db());
  for (const row of rows) {
    expect(Number(row.credited)).toBeLessThanOrEqual(Number(row.billed));
    // An invoice voided takes a change's adjustments on it with it (as it does its credits), so
    // a month whose adjustment was voided is held to its bill, not to its terms' share.
    if (segments.length > 0 && Number(row.voided ?? 0) === 0) {
      const cap = priceOfMonth(segments, row.month.slice(0, 10));
      expect(Number(row.billed), `${row.month} billed above ${cap.cents}`).toBeLessThanOrEqual(cap.cents + cap.pieces);
    }
  }
  // Every completed one-time service on exactly one invoice once its month was billed.
  const { rows: services } = await sql<{ id: string; lines: string }>`
    select s.id, (select count(*) from invoice_lines l where l.visit_id = s.id and l.kind = 'one_time_service') as lines
    from services s where s.customer_id = ${customerId} and s.plan_id is null and s.status = 'completed'`.execute(db());
  for (const service of services) expect(Number(service.lines)).toBeLessThanOrEqual(1);
  return { entries, invoices };
}

/**
 * What a month may bill at most: each of the plan's terms' share of the days it covered, by slots
 * (or by days, for a dated change), and a cent of rounding per share.
 */
function priceOfMonth(segments: readonly Segment[], month: string) {
  const last = lastDayOf(month);
  let cents = 0;
  let pieces = 0;
  segments.forEach((segment, i) => {
    const until = i + 1 < segments.length ? addDays(segments[i + 1].from, -1) : last;
    if (until < month || segment.from > last) return;
    // A month's part is prorated by the rule of the change that bounds it within the month.
    const inside = i + 1 < segments.length && monthOf(segments[i + 1].from) === month ? segments[i + 1] : segment;
    cents += shareOfMonth(segment.terms, month, segment.from, until, inside.rule);
    pieces += 1;
  });
  return { cents, pieces };
}

describe.each([1, 15])("the ledger's promises over random months of events, billing day %i", (billingDay) => {
  const rules = { ...RULES, billingDay };
  const at9 = (day: string) => new Date(`${day}T17:00:00Z`);
  it("hold after every step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 12 }), async (steps) => {
        sequence += 1;
        const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
        const admin = await createUser(db(), { admin: true, fullName: "Owner" });
        const customer = plan.customer_id;
        let month = "2027-03-01";
        let now = at9(billingDateOf(month, billingDay));
        let key = 0;
        const nextKey = () => `p${sequence}_${(key += 1)}`;
        const segments: Segment[] = [
          { from: "2027-01-04", terms: { weekdays: [2], monthlyCents: 8900 }, rule: "slots" },
        ];
        const changedMonths = new Set<string>();
        await bill({ db: db(), now, mailContext, rules });
        let books = await checkBooks(customer, plan.id, segments);
        const unbilled: string[] = [];
        let cancelled = false;

        for (const s of steps) {
          const before = books;
          const choose = <T>(items: T[]) =>
            items.length === 0 ? null : items["pick" in s ? s.pick % items.length : 0];
          let refused = false;
          const attempt = async (work: () => Promise<unknown>) => {
            try {
              await work();
            } catch (error) {
              if (!(error instanceof BillingError) && !(error instanceof PlanChangeError)) throw error;
              refused = true;
            }
          };
          switch (s.kind) {
            case "month": {
              // This month's service days as their fates say (skipped with notice, held for payment,
              // cancelled by an admin, missed for weather or for a locked gate), maybe a service, then
              // the next month billed (and billed again: a second run changes nothing). A cancelled
              // plan has none.
              const weekdays = segments[segments.length - 1].terms.weekdays;
              const slots = slotDays(weekdays, month, lastDayOf(month));
              for (const [i, day] of slots.entries()) {
                const fate = cancelled ? "made" : (s.fates[i] ?? "made");
                if (fate === "made") continue;
                const status =
                  fate === "skip" || fate === "held" ? "skipped" : fate === "cancelled" ? "cancelled" : "missed";
                const skipReason = fate === "skip" ? "customer" : fate === "held" ? "payment_overdue" : undefined;
                const missedReason = fate === "weather" ? "weather" : fate === "gate" ? "locked_gate" : undefined;
                // A plan change made this slot's visit already: that one meets the fate.
                const made = await db()
                  .selectFrom("services")
                  .select(["id", "status"])
                  .where("plan_id", "=", plan.id)
                  .where("plan_slot", "=", day)
                  .executeTakeFirst();
                let visit: string;
                if (made) {
                  if (made.status !== "scheduled") continue;
                  visit = made.id;
                  await db()
                    .updateTable("services")
                    .set({ status, skip_reason: skipReason ?? null, missed_reason: missedReason ?? null })
                    .where("id", "=", made.id)
                    .execute();
                  await db()
                    .insertInto("service_events")
                    .values({
                      service_id: made.id,
                      kind: "status",
                      from_status: "scheduled",
                      to_status: status,
                      created_at: fate === "skip" ? hoursBefore(at8(day), 72) : at8(day),
                    } as never)
                    .execute();
                } else {
                  visit = await addVisit(db(), {
                    customerId: customer,
                    planId: plan.id,
                    day,
                    status,
                    skipReason,
                    missedReason,
                    skippedAt: fate === "skip" ? hoursBefore(at8(day), 72) : undefined,
                  });
                }
                // An admin's "Cancel Visit" takes the visit off its plan.
                if (fate === "cancelled") {
                  await db()
                    .updateTable("services")
                    .set({ plan_left_at: at8(day) })
                    .where("id", "=", visit)
                    .execute();
                }
              }
              if (s.service) {
                unbilled.push(
                  await addVisit(db(), {
                    customerId: customer,
                    day: slots[0],
                    type: "Desert Dash",
                    status: "completed",
                  }),
                );
              }
              month = addMonths(month, 1);
              const billingDate = at9(billingDateOf(month, billingDay));
              now = billingDate > now ? billingDate : new Date(now.getTime() + 3_600_000);
              await bill({ db: db(), now, mailContext, rules });
              // Every plan change's adjustment made before is on this month's invoice or an earlier one,
              // or, for a cancelled plan, settled by its cancellation: given back on its credit note
              // or billed on its final invoice (docs/decisions/120).
              const { rows: unsettled } = await sql<{ id: string }>`
                select a.id from plan_adjustments a where a.plan_id = ${plan.id} and a.invoice_id is null
                  and not exists (select 1 from credit_note_lines c where c.adjustment_id = a.id)`.execute(db());
              expect(unsettled, "no unbilled adjustment is left").toEqual([]);
              const once = await checkBooks(customer, plan.id, segments);
              await bill({ db: db(), now: new Date(now.getTime() + 3_600_000), mailContext, rules });
              const twice = await checkBooks(customer, plan.id, segments);
              expect(twice.entries).toEqual(once.entries);
              break;
            }
            case "cancel": {
              // The customer cancels some days into the month billed last: the preview says what comes
              // back, and the credit note gives exactly that, its lines adding up to it, once.
              const at = new Date(now.getTime() + s.days * 86_400_000);
              const input = {
                planId: plan.id,
                customerId: customer,
                actor: { id: customer, isAdmin: false },
                now: at,
                rules: planRules,
                billing: { rules, catalogue: CATALOGUE, addOns: ADD_ONS },
              };
              const preview = await previewCancellationCredit(db(), input);
              let given = 0;
              await attempt(async () => {
                given = (await cancelPlanWithCredit(db(), input)).creditCents;
              });
              expect(refused, "only a cancelled plan refuses").toBe(cancelled);
              if (!refused) expect(given === 0 ? null : formatCents(given)).toBe(preview.amount);
              cancelled = true;
              const { rows: notes } = await sql<{ amount: number; lines: string }>`
                select n.amount_cents as amount, (select sum(amount_cents) from credit_note_lines c where c.credit_note_id = n.id) as lines
                from credit_notes n where n.customer_id = ${customer} and n.reason = 'cancellation'`.execute(db());
              expect(notes.length).toBeLessThanOrEqual(1);
              for (const note of notes) expect(Number(note.lines)).toBe(note.amount);
              break;
            }
            case "pay": {
              const invoice = choose(before.invoices.filter((i) => i.status === "open" || s.card));
              if (!invoice) break;
              const owed = Math.max(0, invoice.total_cents - invoice.paid_cents);
              const amount = Math.max(1, Math.floor(((s.card ? Math.max(owed, 100) : owed) * s.share) / 100));
              const id = nextKey();
              await attempt(() =>
                recordPayment(db(), {
                  invoiceId: invoice.id,
                  method: s.card ? "stripe" : "cash",
                  amountCents: amount,
                  paidOn: month,
                  note: null,
                  recordedBy: null,
                  idempotencyKey: s.card ? `stripe:pi_${id}` : id,
                  stripePaymentIntentId: s.card ? `pi_${id}` : undefined,
                  now,
                  context: mailContext,
                }),
              );
              break;
            }
            case "refund":
            case "reverse": {
              const payments = await db()
                .selectFrom("payments as p")
                .innerJoin("invoices as i", "i.id", "p.invoice_id")
                .select(["p.id", "p.invoice_id", "p.amount_cents", "p.refunded_cents", "p.reversed_cents"])
                .where("i.customer_id", "=", customer)
                .orderBy("p.created_at")
                .execute();
              const payment = choose(payments);
              if (!payment) break;
              const left = payment.amount_cents - payment.refunded_cents - payment.reversed_cents;
              const amount = Math.max(1, Math.floor((left * s.share) / 100));
              const statusBefore = before.invoices.find((i) => i.id === payment.invoice_id)!.status;
              if (s.kind === "refund") {
                await attempt(() =>
                  recordRefund(db(), {
                    invoiceId: payment.invoice_id,
                    paymentId: payment.id,
                    amountCents: amount,
                    refundedOn: month,
                    note: null,
                    recordedBy: null,
                    idempotencyKey: nextKey(),
                    now,
                  }),
                );
                const after = await invoicesOf(customer);
                if (statusBefore !== "open") {
                  expect(after.find((i) => i.id === payment.invoice_id)!.status, "a refund never reopens").toBe(
                    statusBefore,
                  );
                }
              } else {
                await attempt(() =>
                  reversePayment(db(), {
                    invoiceId: payment.invoice_id,
                    paymentId: payment.id,
                    amountCents: amount,
                    reversedOn: month,
                    note: null,
                    recordedBy: null,
                    idempotencyKey: nextKey(),
                    now,
                  }),
                );
              }
              break;
            }
            case "disputeLost": {
              // The bank takes back part or all (or more than is left) of a card payment; Stripe
              // may tell us twice: the second changes nothing.
              const payments = await db()
                .selectFrom("payments as p")
                .innerJoin("invoices as i", "i.id", "p.invoice_id")
                .select(["p.id", "p.invoice_id", "p.amount_cents"])
                .where("i.customer_id", "=", customer)
                .where("p.method", "=", "stripe")
                .orderBy("p.created_at")
                .execute();
              const payment = choose(payments);
              if (!payment) break;
              const lost = {
                disputeId: `du_${nextKey()}`,
                paymentId: payment.id,
                invoiceId: payment.invoice_id,
                amountCents: Math.max(1, Math.floor((payment.amount_cents * s.share) / 100)),
                reason: "fraudulent",
              };
              const ledgerBefore = await ledgerOf(customer);
              const invoicesBefore = await invoicesOf(customer);
              const paymentBefore = await db()
                .selectFrom("payments")
                .select(["amount_cents", "refunded_cents", "reversed_cents"])
                .where("id", "=", payment.id)
                .executeTakeFirstOrThrow();
              await attempt(() => recordDisputeLost(db(), { ...lost, feeCents: 1500 }, now, mailContext));
              const once = await ledgerOf(customer);
              await attempt(() => recordDisputeLost(db(), { ...lost, feeCents: 1500 }, now, mailContext));
              expect(await ledgerOf(customer), "a replayed dispute stores nothing").toEqual(once);
              // What a lost dispute takes back (docs/decisions/121): never more than the bank took or
              // than was left of the payment; the balance rises by it less what was written off with
              // a written-off invoice, and by nothing for Stripe's fee; a voided or written-off
              // invoice is not reopened; credit on file never goes below zero (checkBooks).
              const reversal = await db()
                .selectFrom("payment_reversals")
                .select(["amount_cents", "from_credit_cents", "written_off_cents"])
                .where("stripe_dispute_id", "=", lost.disputeId)
                .executeTakeFirst();
              const taken = reversal?.amount_cents ?? 0;
              const left = paymentBefore.amount_cents - paymentBefore.refunded_cents - paymentBefore.reversed_cents;
              expect(taken).toBeLessThanOrEqual(Math.min(lost.amountCents, left));
              const sum = (rows: { amount_cents: number }[]) =>
                rows.reduce((total, row) => total + row.amount_cents, 0);
              expect(sum(once) - sum(ledgerBefore), "the balance moves by what is owed again").toBe(
                taken - (reversal?.written_off_cents ?? 0),
              );
              const before = invoicesBefore.find((i) => i.id === payment.invoice_id)!;
              const after = (await invoicesOf(customer)).find((i) => i.id === payment.invoice_id)!;
              if (before.status === "void" || before.status === "uncollectible") {
                expect(after.status, "a closed invoice stays closed").toBe(before.status);
              }
              if (before.status === "void") expect(reversal?.from_credit_cents ?? 0).toBe(taken);
              break;
            }
            case "change":
            case "datedChange": {
              // An admin's change on a day before the next billing date, at once or from a later day;
              // at most one change a month (the bound below prorates a month by one rule).
              const today = addDays(businessToday(now), s.after);
              const fromDay = s.kind === "change" ? today : addDays(today, s.ahead);
              const next = at9(billingDateOf(addMonths(month, 1), billingDay));
              if (at9(today) >= next || changedMonths.has(monthOf(today)) || changedMonths.has(monthOf(fromDay))) break;
              // A cancelled plan takes no change.
              if (cancelled) break;
              const target = PLANS[s.to];
              now = at9(today);
              await changePlan(db(), {
                planId: plan.id,
                customerId: customer,
                cataloguePlan: target.choice,
                weekdays: target.weekdays,
                dogCount: 1,
                yardSize: "medium",
                fromDate: fromDay,
                notes: null,
                actor: { id: admin.id, isAdmin: true },
                now,
                rules: planRules,
                billingDay,
              });
              changedMonths.add(monthOf(today));
              changedMonths.add(monthOf(fromDay));
              segments.push({
                from: fromDay,
                terms: { weekdays: target.weekdays, monthlyCents: target.cents },
                rule: s.kind === "change" ? "slots" : "days",
              });
              break;
            }
            case "void":
            case "writeOff": {
              const invoice = choose(before.invoices.filter((i) => i.status === "open"));
              if (!invoice) break;
              await attempt(() =>
                s.kind === "void"
                  ? voidInvoice(db(), { invoiceId: invoice.id, now })
                  : markInvoiceUncollectible(db(), { invoiceId: invoice.id, now }),
              );
              if (s.kind === "void" && !refused) {
                // A void never takes away what was owed back (docs/decisions/120): a downgrade's
                // adjustment on it comes back whole, its visits' credits within their months' bills,
                // on one credit note naming the invoice.
                const { rows: given } = await sql<{ lines: string; adjusted: string; visits: string; credits: string }>`
                  select
                    (select coalesce(sum(c.amount_cents), 0) from credit_note_lines c join credit_notes n on n.id = c.credit_note_id
                      where n.invoice_id = ${invoice.id} and n.reason = 'invoice_void' and c.adjustment_id is not null) as lines,
                    (select coalesce(-sum(a.amount_cents), 0) from plan_adjustments a
                      where a.invoice_id = ${invoice.id} and a.amount_cents < 0) as adjusted,
                    (select coalesce(sum(c.amount_cents), 0) from credit_note_lines c join credit_notes n on n.id = c.credit_note_id
                      where n.invoice_id = ${invoice.id} and n.reason = 'invoice_void' and c.adjustment_id is null) as visits,
                    (select coalesce(-sum(l.amount_cents), 0) from invoice_lines l
                      where l.invoice_id = ${invoice.id} and l.kind = 'skip_credit') as credits`.execute(db());
                expect(Number(given[0].lines)).toBe(Number(given[0].adjusted));
                expect(Number(given[0].visits)).toBeLessThanOrEqual(Number(given[0].credits));
              }
              break;
            }
          }
          books = await checkBooks(customer, plan.id, segments);
          // The ledger only grows: what was there is there unchanged.
          expect(books.entries.slice(0, before.entries.length)).toEqual(before.entries);
          if (refused) expect(books.entries).toEqual(before.entries);
        }
        // Each completed service was billed by the month that followed it.
        for (const id of unbilled) {
          const lines = await db()
            .selectFrom("invoice_lines")
            .select("id")
            .where("visit_id", "=", id)
            .where("kind", "=", "one_time_service")
            .execute();
          expect(lines).toHaveLength(1);
        }
      }),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 30), endOnFailure: true },
    );
  }, 240_000);
});
