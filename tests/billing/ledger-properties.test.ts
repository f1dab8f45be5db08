import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { ADD_ONS, CATALOGUE, RULES, addVisit, at8, bill, createPlan, hoursBefore } from "../helpers/billing-fixtures";
import { addMonths, lastDayOf } from "~/features/billing/billing-rules";
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
import { recordDisputeLost } from "~/features/billing/stripe-disputes.server";
import { PlanChangeError } from "~/features/plans/plan-changes.server";
import { slotDays } from "~/features/plans/plan-schedule";

/**
 * The Terms' money promises as properties (issue 34, docs/decisions/113), over random sequences
 * of months and events run through the real workflow on a real database: months billed with
 * random skips and one-time services, payments by hand and by card (some beyond what is owed),
 * refunds, reversals, disputes lost (replayed), voids and write-offs, visits the business
 * cancelled, missed for weather or held for payment (docs/decisions/115), and the plan cancelled
 * mid-month. After every step:
 *  - the balance is the ledger's sum, and equals what open invoices owe less credit on file, with
 *    never both at once (credit is used at once), and never negative credit;
 *  - no entry ever changes (the ledger so far is a prefix of the ledger after);
 *  - every amount is an integer number of cents;
 *  - a refund never makes an invoice owed again;
 *  - no month's visit credits (invoice lines and credit note lines) exceed what it was billed;
 *  - a cancellation gives what its preview said, as one credit note whose lines add up to it;
 *  - every completed one-time service is on exactly one invoice;
 *  - running the billing run again changes nothing;
 *  - a refusal stores nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const mailContext: MailContext = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://localhost:3000",
};

/** What became of a month's Tuesday visit: made, or skipped with notice, or not made by the business. */
type VisitFate = "made" | "skip" | "held" | "cancelled" | "weather" | "gate";

type Step =
  | { kind: "month"; fates: VisitFate[]; service: boolean }
  | { kind: "cancel"; days: number }
  | { kind: "pay"; pick: number; share: number; card: boolean }
  | { kind: "refund"; pick: number; share: number }
  | { kind: "reverse"; pick: number; share: number }
  | { kind: "disputeLost"; pick: number; share: number }
  | { kind: "void"; pick: number }
  | { kind: "writeOff"; pick: number };

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

async function checkBooks(customerId: string, planId: string) {
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
  // No month's credits above its bill.
  const { rows } = await sql<{ month: string; billed: string; credited: string }>`
    select b.month::text, b.billed, coalesce(c.credited, 0) as credited from (
      select i.period_month as month, sum(l.amount_cents) as billed from invoices i
      join invoice_lines l on l.invoice_id = i.id
      where i.plan_id = ${planId} and l.kind in ('plan_month', 'prorated_month') and i.status <> 'void'
      group by i.period_month
    ) b left join (
      select month, sum(cents) as credited from (
        select date_trunc('month', s.plan_slot)::date as month, -l.amount_cents as cents
        from invoice_lines l join services s on s.id = l.visit_id
        where l.kind = 'skip_credit' and s.plan_id = ${planId}
        union all
        select c.month, c.amount_cents from credit_note_lines c where c.plan_id = ${planId}
      ) given group by 1
    ) c on c.month = b.month`.execute(db());
  for (const row of rows) expect(Number(row.credited)).toBeLessThanOrEqual(Number(row.billed));
  // Every completed one-time service on exactly one invoice once its month was billed.
  const { rows: services } = await sql<{ id: string; lines: string }>`
    select s.id, (select count(*) from invoice_lines l where l.visit_id = s.id and l.kind = 'one_time_service') as lines
    from services s where s.customer_id = ${customerId} and s.plan_id is null and s.status = 'completed'`.execute(db());
  for (const service of services) expect(Number(service.lines)).toBeLessThanOrEqual(1);
  return { entries, invoices };
}

describe("the ledger's promises over random months of events", () => {
  it("hold after every step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 12 }), async (steps) => {
        sequence += 1;
        const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
        const customer = plan.customer_id;
        let month = "2027-03-01";
        let now = new Date("2027-03-01T17:00:00Z");
        let key = 0;
        const nextKey = () => `p${sequence}_${(key += 1)}`;
        await bill({ db: db(), now, mailContext });
        let books = await checkBooks(customer, plan.id);
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
              // This month's Tuesdays as their fates say (skipped with notice, held for payment, cancelled
              // by an admin, missed for weather or for a locked gate), maybe a service, then the next
              // month billed (and billed again: a second run changes nothing). A cancelled plan has none.
              const slots = slotDays([2], month, lastDayOf(month));
              for (const [i, day] of slots.entries()) {
                const fate = cancelled ? "made" : (s.fates[i] ?? "made");
                if (fate === "made") continue;
                const visit = await addVisit(db(), {
                  customerId: customer,
                  planId: plan.id,
                  day,
                  status:
                    fate === "skip" || fate === "held" ? "skipped" : fate === "cancelled" ? "cancelled" : "missed",
                  skipReason: fate === "skip" ? "customer" : fate === "held" ? "payment_overdue" : undefined,
                  missedReason: fate === "weather" ? "weather" : fate === "gate" ? "locked_gate" : undefined,
                  skippedAt: fate === "skip" ? hoursBefore(at8(day), 72) : undefined,
                });
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
              now = new Date(`${month}T17:00:00Z`);
              await bill({ db: db(), now, mailContext });
              const once = await checkBooks(customer, plan.id);
              await bill({ db: db(), now: new Date(now.getTime() + 3_600_000), mailContext });
              const twice = await checkBooks(customer, plan.id);
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
                rules: {
                  changeNoticeHours: 24,
                  longestPauseDays: 90,
                  horizonDays: 28,
                  firstVisitTime: "08:00",
                  closedDays: [],
                },
                billing: { rules: RULES, catalogue: CATALOGUE, addOns: ADD_ONS },
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
              await attempt(() => recordDisputeLost(db(), lost, now, mailContext));
              const once = await ledgerOf(customer);
              await attempt(() => recordDisputeLost(db(), lost, now, mailContext));
              expect(await ledgerOf(customer), "a replayed dispute stores nothing").toEqual(once);
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
              break;
            }
          }
          books = await checkBooks(customer, plan.id);
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
