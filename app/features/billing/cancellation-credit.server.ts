import { addDays, businessToday } from "~/features/visits/visit-dates";
import { billingDateOf, currentPeriod, lastDayOf, monthOf, addMonths, settlementWindow } from "./billing-rules";
import { billingRunRules, type BillingRunRules } from "./billing-run.server";
import { queueInvoiceEmails } from "./billing-emails.server";
import { applyCreditOnFile } from "./customer-credit.server";
import { billingMailContext, type MailContext } from "./payment-recovery-emails.server";
import { formatCents } from "./money";
import { cataloguePrice, priceForMonth, totalCents } from "./plan-prices";
import { expireStaleCheckoutsOf } from "./stripe-checkout-expiry.server";
import {
  candidateOf,
  creditVisits,
  monthBilledFrom,
  termsOnFrom,
  type CreditCandidate,
  type CreditedVisit,
} from "./visit-credits";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import type { AddOn, PlanCard, PlanRules } from "~/content/types";
import { CLOSED_DAY_CANCELLED_DETAIL } from "~/features/plans/plan-constants";
import {
  cancelPlan,
  cancellationEnd,
  type CancelAnswer,
  type PlanActionInput,
  type PlanActor,
} from "~/features/plans/plan-changes.server";
import { scheduleRules, serviceDayFor, slotDays, visitStartsAt } from "~/features/plans/plan-schedule";
import { findPlanById } from "~/models/customer-plan.server";
import {
  firstInvoicedMonth,
  listMonthBilling,
  listVisitsToCredit,
  type MonthBilling,
} from "~/models/invoice-run.server";
import {
  creditsOnFile,
  insertCreditNote,
  insertCreditNoteLines,
  lastInvoicedMonthOfPlan,
  listOpenInvoicesOwing,
} from "~/models/ledger.server";
import { insertInvoices, readCreditApplied } from "~/models/invoice-run.server";
import {
  listPlanChanges,
  listUnbilledAdjustments,
  markAdjustmentsBilled,
  type UnbilledAdjustment,
} from "~/models/plan-adjustment.server";
import type { CustomerPlan } from "../../../db/schema";
import type { Db } from "~/utils/db.server";
import { isStripeConfigured } from "~/utils/stripe.server";

/**
 * A cancellation's credit (docs/decisions/115). A plan cancelled has no next invoice to carry its
 * credits, so what it is owed comes back at once as one numbered credit note (reason
 * "cancellation"), kept as credit on file: it pays what the customer owes first, and the rest
 * stays on file (an admin may refund it). It gives back, at the rate of visit-credits.ts:
 *  - the visits (and slots past the visits made) the cancellation ends in months already billed,
 *    when they start at least the change notice after it (an admin's cancellation for a customer
 *    who phoned late credits the late ones nothing, as a late skip);
 *  - the visits not made since the last invoice settled its days and not credited yet: skips with
 *    notice, pauses, the business's own cancellations, weather misses, days held for payment.
 * A plan change's adjustments not billed yet have no next invoice either (decision 120): one owed
 * back (a downgrade's) joins the credit note as a line of its own; one owed (an upgrade's) is billed
 * on a final invoice made with the cancellation, due that day, which the credit note pays first
 * like anything else owed.
 * `cancellationCredit` is the one computation: the cancel page's preview calls it before, and the
 * cancellation inside its transaction with the plan locked, on the plan as it still is.
 */

/** What a cancellation settles: its credit note's lines, and what a final invoice bills. */
export type CancellationSettlement = {
  visits: CreditedVisit[];
  /** Unbilled plan-change adjustments owed back (negative): lines of the credit note. */
  givenBack: UnbilledAdjustment[];
  /** Unbilled plan-change adjustments owed (positive): lines of the final invoice. */
  owed: UnbilledAdjustment[];
  /** The credit note's amount: the visits' credits and the adjustments owed back. */
  creditCents: number;
  /** The final invoice's amount. */
  finalCents: number;
};

function settlement(visits: CreditedVisit[], adjustments: readonly UnbilledAdjustment[]): CancellationSettlement {
  const givenBack = adjustments.filter((adjustment) => adjustment.amount_cents < 0);
  const owed = adjustments.filter((adjustment) => adjustment.amount_cents > 0);
  return {
    visits,
    givenBack,
    owed,
    creditCents:
      visits.reduce((sum, visit) => sum + visit.amountCents, 0) -
      givenBack.reduce((sum, adjustment) => sum + adjustment.amount_cents, 0),
    finalCents: owed.reduce((sum, adjustment) => sum + adjustment.amount_cents, 0),
  };
}

/** What billing the credit needs: the owner's rules and the prices (by default Sanity's). */
export type CancellationBilling = {
  rules: BillingRunRules;
  catalogue: readonly PlanCard[];
  addOns: readonly AddOn[];
  /** The final invoice's "Your invoice" e-mail: the owner's words (by default Sanity's). */
  mailContext?: MailContext;
  /** Whether the customer can pay online (by default: Stripe is configured). */
  stripeConfigured?: boolean;
};

async function defaultBilling(): Promise<CancellationBilling> {
  const [rules, catalogue, addOns, mailContext] = await Promise.all([
    billingRunRules(),
    getCatalogue(),
    getAddOns(),
    billingMailContext(),
  ]);
  return { rules, catalogue, addOns, mailContext };
}

export async function cancellationCredit(
  db: Db,
  input: {
    plan: CustomerPlan;
    end: { lastDay: string; notBefore: Date };
    now: Date;
    billing: CancellationBilling;
    planRules: PlanRules;
  },
): Promise<CancellationSettlement> {
  const { plan, end, now, billing } = input;
  if (plan.status === "cancelled") return settlement([], []);
  const adjustments = await listUnbilledAdjustments(db, [plan.id]);
  const billingDay = billing.rules.billingDay;
  const lastInvoiced = await lastInvoicedMonthOfPlan(db, plan.id);
  // The days the plan's next invoice would have settled start where the last one's ended.
  const unsettledFrom = lastInvoiced
    ? billingDateOf(lastInvoiced, billingDay)
    : settlementWindow(currentPeriod(businessToday(now), billingDay), billingDay).from;
  // The last day billed: a visit after it was never paid for, so its end gives nothing back.
  const billedUntil = lastInvoiced ? lastDayOf(lastInvoiced) : end.lastDay;
  const until = addDays(billedUntil > end.lastDay ? billedUntil : end.lastDay, 1);
  const visits = await listVisitsToCredit(
    db,
    [plan.id],
    { from: unsettledFrom, until },
    { closedDayDetail: CLOSED_DAY_CANCELLED_DETAIL },
  );
  const candidates: CreditCandidate[] = visits
    .filter((visit) => visit.plan_slot <= end.lastDay)
    .flatMap((visit) => candidateOf(visit) ?? []);

  // Every slot the cancellation ends in a billed month, whether its visit was made yet or not.
  const bySlot = new Map(visits.map((visit) => [visit.plan_slot, visit]));
  const schedule = scheduleRules(input.planRules);
  const firstEnded = [addDays(end.lastDay, 1), unsettledFrom, plan.start_date].sort().at(-1)!;
  for (const slot of slotDays(plan.weekdays, firstEnded, billedUntil)) {
    const visit = bySlot.get(slot);
    if (visit) {
      if (visit.credited) continue;
      // What the cancellation cancels (syncPlanVisits): a scheduled visit from the notice on, or
      // one a pause or a hold skipped; a customer's own skip stays theirs, credited as a skip.
      const ended =
        visit.service_date >= end.notBefore &&
        (visit.status === "scheduled" ||
          (visit.status === "skipped" && (visit.skip_reason === "paused" || visit.skip_reason === "payment_overdue")));
      const own = ended ? null : candidateOf(visit);
      if (own) candidates.push(own);
      else if (ended) {
        candidates.push({
          visitId: visit.id,
          slot,
          cause: "plan_cancelled",
          startsAt: visit.service_date,
          changedAt: now,
        });
      }
      continue;
    }
    const day = serviceDayFor(slot, schedule.closed);
    if (!day) continue;
    const startsAt = visitStartsAt(day, input.planRules.firstVisitTime);
    if (startsAt < end.notBefore) continue;
    candidates.push({ visitId: null, slot, cause: "plan_cancelled", startsAt, changedAt: now });
  }
  if (candidates.length === 0) return settlement([], adjustments);

  const fromMonth = monthOf([...candidates.map((c) => c.slot)].sort()[0]);
  const [months, changes]: [MonthBilling[], Awaited<ReturnType<typeof listPlanChanges>>] = await Promise.all([
    listMonthBilling(db, [plan.id], fromMonth, addMonths(monthOf(until), 1)),
    listPlanChanges(db, [plan.id]),
  ]);
  // The price the run bills the plan at (locked on it, decision 116); a plan the run has not
  // locked yet, the catalogue's, as the run would lock it.
  const card = billing.catalogue.find((candidate) => candidate._id === plan.catalogue_plan_id);
  const price =
    priceForMonth(plan, currentPeriod(businessToday(now), billingDay)) ??
    cataloguePrice(card, plan.dog_count, billing.addOns);
  const visitCredits = creditVisits(plan, candidates, {
    noticeHours: billing.rules.changeNoticeHours,
    creditSkips: billing.rules.creditSkippedVisits,
    monthBilled: monthBilledFrom(new Map(months.map((month) => [month.month, { ...month }])), plan, {
      firstInvoicedMonth: await firstInvoicedMonth(db),
      monthlyCents: price ? totalCents(price) : 0,
      prorateFirstMonth: billing.rules.prorateFirstMonth,
    }),
    // A month a plan change touched: the terms in force on the visit's day (decision 117).
    termsOn: termsOnFrom(changes, plan),
  });
  return settlement(visitCredits, adjustments);
}

/** What the cancel page says comes back, and how (decision 115). */
export type CancellationPreview = {
  /** The money that comes back, formatted; null when nothing does. */
  amount: string | null;
  visits: number;
  /** What the customer owes now, formatted, which the credit pays first; null when nothing. */
  pays: string | null;
  /** A final invoice for a plan change not billed yet (decision 120), formatted; null when none. */
  bills: string | null;
};

/** The credit a cancellation made now would give: the same computation as the cancellation's. */
export async function previewCancellationCredit(
  db: Db,
  input: {
    planId: string;
    customerId: string;
    actor: PlanActor;
    now: Date;
    rules?: PlanRules;
    billing?: CancellationBilling;
  },
): Promise<CancellationPreview> {
  const plan = await findPlanById(input.planId, db);
  if (!plan || plan.customer_id !== input.customerId || plan.status === "cancelled")
    return { amount: null, visits: 0, pays: null, bills: null };
  const planRules = input.rules ?? (await getSiteSettings()).planRules;
  const billing = input.billing ?? (await defaultBilling());
  const end = await cancellationEnd(db, plan, input.actor, planRules, input.now);
  const settled = await cancellationCredit(db, { plan, end, now: input.now, billing, planRules });
  const cents = settled.creditCents;
  const bills = settled.finalCents > 0 ? formatCents(settled.finalCents) : null;
  if (cents === 0) return { amount: null, visits: 0, pays: null, bills };
  // The final invoice is owed too once made: the credit pays it as it pays the rest.
  const owed =
    settled.finalCents +
    (await listOpenInvoicesOwing(db, plan.customer_id, { lock: false })).reduce(
      (sum, invoice) => sum + invoice.total_cents - invoice.paid_cents,
      0,
    );
  return {
    amount: formatCents(cents),
    visits: settled.visits.length,
    pays: owed > 0 ? formatCents(Math.min(owed, cents)) : null,
    bills,
  };
}

/**
 * Cancels the plan (cancelPlan) and, in the same transaction, issues its credit note and applies
 * it as credit on file. The customer's open invoices are locked before the plan, in the order a
 * payment takes them (invoice, then plan), so the two cannot deadlock. A second cancellation is
 * refused by the plan's state; the note's key (`cancellation:<plan>`) keeps it to one anyway.
 */
export async function cancelPlanWithCredit(
  db: Db,
  input: PlanActionInput & CancelAnswer & { billing?: CancellationBilling },
) {
  const billing = input.billing ?? (await defaultBilling());
  const planRules = input.rules ?? (await getSiteSettings()).planRules;
  let credited: string[] = [];
  let creditCents = 0;
  const plan = await cancelPlan(db, input, {
    beforeLock: async (trx) => {
      await listOpenInvoicesOwing(trx, input.customerId);
    },
    onCancel: async (trx, current, end) => {
      const settled = await cancellationCredit(trx, { plan: current, end, now: input.now, billing, planRules });
      const { visits, givenBack } = settled;
      if (settled.creditCents === 0 && settled.finalCents === 0) return null;
      return async (trx2) => {
        const today = businessToday(input.now);
        const finalInvoice =
          settled.finalCents > 0 ? await billFinalInvoice(trx2, current, settled, billing, input.now) : null;
        const billedWords = finalInvoice
          ? `Final invoice ${finalInvoice.number} bills ${formatCents(finalInvoice.total_cents)} for the plan change.`
          : "";
        const cents = settled.creditCents;
        if (cents === 0) {
          // Credit already on file pays the final invoice first, as the billing run's invoices.
          if (finalInvoice) credited = (await applyCreditOnFile(trx2, [current.customer_id], input.now)).credited;
          await queueFinalInvoiceEmail(trx2, finalInvoice, billing, today);
          return billedWords;
        }
        const parts = [
          visits.length > 0 ? `${visits.length} visit${visits.length === 1 ? "" : "s"} credited` : null,
          givenBack.length > 0 ? "the plan change's credit" : null,
        ].filter(Boolean);
        const note = await insertCreditNote(trx2, {
          customerId: current.customer_id,
          invoiceId: null,
          reason: "cancellation",
          paidOut: "credit",
          amountCents: cents,
          issuedOn: today,
          description: `${current.catalogue_plan_name} cancelled with notice: ${parts.join(" and ")}`,
          refundId: null,
          idempotencyKey: `cancellation:${current.id}`,
        });
        if (!note) return billedWords || null;
        creditCents = cents;
        await insertCreditNoteLines(trx2, note.id, [
          ...visits.map((visit) => ({
            planId: current.id,
            month: visit.month,
            slot: visit.slot,
            visitId: visit.visitId,
            description: visit.description,
            amountCents: visit.amountCents,
          })),
          // A downgrade's money back: the adjustment itself, given back once (decision 120).
          ...givenBack.map((adjustment) => ({
            planId: current.id,
            month: adjustment.month,
            slot: adjustment.month,
            visitId: null,
            description: adjustment.description,
            amountCents: -adjustment.amount_cents,
            adjustmentId: adjustment.id,
          })),
        ]);
        const applied = await applyCreditOnFile(trx2, [current.customer_id], input.now);
        credited = applied.credited;
        await queueFinalInvoiceEmail(trx2, finalInvoice, billing, today);
        const left = (await creditsOnFile(trx2, [current.customer_id])).get(current.customer_id) ?? 0;
        const back =
          left > 0
            ? `${formatCents(cents)} comes back to you (credit note ${note.number}): ${formatCents(left)} is kept as credit on file.`
            : `${formatCents(cents)} comes back to you (credit note ${note.number}): it paid what you owed.`;
        return [billedWords, back].filter(Boolean).join(" ");
      };
    },
  });
  // Committed: an invoice the credit paid loses its open "Pay now" page (decision 111).
  await expireStaleCheckoutsOf(db, credited, input.now);
  return { plan, creditCents };
}

/**
 * "Your invoice" for the final invoice, queued in the cancellation's transaction as the billing
 * run queues its own (docs/decisions/106): what is left once the credit note and credit on file
 * paid it, under the same dedupe key, so the customer hears of every invoice issued, once.
 */
async function queueFinalInvoiceEmail(
  trx: Db,
  invoice: Awaited<ReturnType<typeof billFinalInvoice>>,
  billing: CancellationBilling,
  today: string,
) {
  if (!invoice) return;
  const applied = await readCreditApplied(trx, [invoice.id]);
  await queueInvoiceEmails(trx, [{ ...invoice, credit_applied_cents: applied.get(invoice.id) ?? 0 }], {
    period: monthOf(today),
    dueOn: today,
    footer: billing.rules.invoiceFooter || null,
    context: billing.mailContext ?? (await billingMailContext()),
    stripeConfigured: billing.stripeConfigured ?? isStripeConfigured(),
  });
}

/**
 * The final invoice of a cancelled plan (decision 120): the plan change's adjustments it still
 * owes, which no next invoice will carry. Plan-less (the plan's month may have its invoice
 * already), issued and due on the cancellation's day, and the adjustments marked billed on it.
 */
async function billFinalInvoice(
  trx: Db,
  plan: CustomerPlan,
  settled: CancellationSettlement,
  billing: CancellationBilling,
  now: Date,
) {
  const today = businessToday(now);
  const [invoice] = await insertInvoices(
    trx,
    [
      {
        customerId: plan.customer_id,
        planId: null,
        lines: settled.owed.map((adjustment) => ({
          kind: "plan_change" as const,
          description: adjustment.description,
          visitId: null,
          amountCents: adjustment.amount_cents,
          adjustmentId: adjustment.id,
        })),
      },
    ],
    {
      period: monthOf(today),
      issuedOn: today,
      dueOn: today,
      footer: billing.rules.invoiceFooter || null,
      issuedAt: now,
    },
  );
  if (!invoice) return null;
  await markAdjustmentsBilled(
    trx,
    settled.owed.map((adjustment) => ({ adjustmentId: adjustment.id, invoiceId: invoice.id })),
  );
  return invoice;
}
