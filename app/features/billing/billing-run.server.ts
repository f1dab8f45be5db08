import {
  addMonths,
  currentPeriod,
  dollarsToCents,
  monthCharge,
  monthOf,
  settlementWindow,
  visitTypeSlug,
} from "./billing-rules";
import { candidateOf, creditVisits, dayName, monthBilledFrom, termsOnFrom, type MonthBilled } from "./visit-credits";
import { applyCreditOnFile } from "./customer-credit.server";
import { priceForMonth, totalCents } from "./plan-prices";
import { applyCataloguePrices } from "./price-changes.server";
import { expireStaleCheckoutsOf } from "./stripe-checkout-expiry.server";
import { queueInvoiceEmails } from "./billing-emails.server";
import { billingMailContext } from "./payment-recovery-emails.server";
import type { MailContext } from "./payment-recovery-emails.server";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import type { AddOn, BillingRules, PlanCard } from "~/content/types";
import { CLOSED_DAY_CANCELLED_DETAIL } from "~/features/plans/plan-constants";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import {
  firstInvoicedMonth,
  insertInvoices,
  listMonthBilling,
  listPlansToBillBatch,
  readCreditApplied,
  listVisitsToCredit,
  listUnbilledOneTimeVisits,
  findInvoicedPlans,
  type DraftInvoice,
  type DraftLine,
  type OneTimeVisit,
  type PlanToBill,
  type VisitToCredit,
} from "~/models/invoice-run.server";
import {
  listPlanChanges,
  listUnbilledAdjustments,
  markAdjustmentsBilled,
  type PlanChangeTerms,
  type UnbilledAdjustment,
} from "~/models/plan-adjustment.server";
import { tipLineDescription } from "~/features/tips/tip-rules";
import { listUnbilledTips, type UnbilledTip } from "~/models/tip.server";
import { withAdvisoryLock } from "~/utils/advisory-lock.server";
import { formatBusinessDate } from "~/utils/business-time";
import { getDb, type Db } from "~/utils/db.server";
import { byId, keysetBatches } from "~/utils/keyset-batches.server";
import { isStripeConfigured } from "~/utils/stripe.server";

/**
 * The billing run (issue 27, docs/decisions/101), built like the plan visit generator: one run at
 * a time across machines (a session advisory lock), plans read in keyset batches outside any
 * transaction, and each batch's invoices written in one short transaction. It is idempotent per
 * plan and month: (plan, period) is unique and the numbering transaction re-reads what exists.
 *
 * From the billing date of a month on, every active or paused plan gets an invoice for that
 * month: the month's price, or its first month's share by the visits left (when prorated), less a
 * credit for each visit the customer skipped with notice in the days the invoice settles (the
 * previous billing date to this one; what that visit's month was billed ÷ its visits, a month's
 * credits never above what it was billed), plus each completed one-time service not yet billed,
 * however late it was marked completed. Services of a customer with no new plan invoice go on an
 * invoice of services alone (a customer may get several in a month; each visit is billed once).
 * Credit on file pays the new invoices first; one whose credits cover it is settled at issue
 * (docs/decisions/113).
 * The business's own cancellations (an admin's "Cancel Visit", a closed day with no open weekday),
 * weather misses and a payment hold's skipped visits are credited at the same rate, whatever the
 * notice (docs/decisions/115). Other missed visits (locked gate, dog in yard: the Terms' denied
 * access) are never credited.
 *
 * Each new invoice's "Your invoice" e-mail is queued in the transaction that inserts it
 * (docs/decisions/106): the invoice and its e-mail commit together, or neither does.
 */

export const BILLING_RUN_LOCK = "swift-scoop:billing-run";
const PLAN_BATCH = 1000;
/** Invoices per numbering transaction: half a batch keeps each well under a second (bench/billing.ts). */
const WRITE_CHUNK = 500;
const PLAN_VISIT_TYPES = new Set(["Weekly Service", "Twice Weekly Service", "Thrice Weekly Service"]);

/** What the run needs of the owner's settings. */
export type BillingRunRules = BillingRules & { changeNoticeHours: number };

export type BillingRunOptions = {
  now: Date;
  db?: Db;
  rules?: BillingRunRules;
  /** The catalogue and add-ons (prices); by default Sanity's. */
  catalogue?: readonly PlanCard[];
  addOns?: readonly AddOn[];
  /** The owner's name, phone and address for the invoice e-mails; by default Sanity's. */
  mailContext?: MailContext;
  /** Whether cards are charged (the e-mails say so); by default whether Stripe is configured. */
  stripeConfigured?: boolean;
  signal?: AbortSignal;
  /** Awaited between batches (the server's background run paces itself: decision 099). */
  betweenBatches?: () => Promise<void>;
  batchSize?: number;
  /** Tests only: another lock name lets two runs overlap, to test the database's guarantees alone. */
  lockName?: string;
};

export type BillingRunResult = {
  ran: boolean;
  /** The month billed ("YYYY-MM-01"). */
  period: string;
  plans: number;
  invoices: number;
  /** Plans left unbilled: no price locked on them, and their catalogue plan has no monthly price in Sanity. */
  unpriced: number;
  /** The longest transaction the run held, in milliseconds (the bench reads it). */
  longestTransactionMs: number;
};

export async function runBilling(options: BillingRunOptions): Promise<BillingRunResult> {
  const db = options.db ?? (await getDb());
  const rules = options.rules ?? (await billingRunRules());
  const [catalogue, addOns, mailContext] = await Promise.all([
    options.catalogue ?? getCatalogue(),
    options.addOns ?? getAddOns(),
    options.mailContext ?? billingMailContext(),
  ]);
  const today = businessToday(options.now);
  const period = currentPeriod(today, rules.billingDay);
  const window = settlementWindow(period, rules.billingDay);
  // A service completed late (after the invoice of its days) is still billed, on the next run:
  // services are looked for from the first month billing ever settled (docs/decisions/113).
  const first = await firstInvoicedMonth(db);
  const servicesFrom = first && first < period ? settlementWindow(first, rules.billingDay).from : window.from;
  const run: Run = {
    rules,
    now: options.now,
    firstInvoicedMonth: first,
    period,
    window,
    servicesStart: startOfBusinessDay(servicesFrom < window.from ? servicesFrom : window.from)!,
    windowStart: startOfBusinessDay(window.from)!,
    windowEnd: startOfBusinessDay(window.until)!,
    issuedOn: today,
    dueOn: today > period ? today : period,
    prices: priceBook(catalogue),
    mailContext,
    stripeConfigured: options.stripeConfigured ?? isStripeConfigured(),
    batchSize: options.batchSize ?? PLAN_BATCH,
    signal: options.signal,
    betweenBatches: options.betweenBatches,
    counts: { plans: 0, invoices: 0, unpriced: 0, longestTransactionMs: 0 },
  };
  const locked = await withAdvisoryLock(db, options.lockName ?? BILLING_RUN_LOCK, async (conn) => {
    // First the catalogue's prices reach the plans, with the Terms' notice (decision 116): the
    // plans are then billed at the prices stored on them, never at Sanity's of the day.
    await applyCataloguePrices(conn, {
      now: options.now,
      catalogue,
      addOns,
      rules,
      mailContext,
      batchSize: run.batchSize,
      signal: options.signal,
    });
    await billPlans(conn, run);
    await billOneTimeServicesAlone(conn, run);
    await billTipsAlone(conn, run);
    return run.counts;
  });
  if (!locked.acquired) {
    return { ran: false, period, plans: 0, invoices: 0, unpriced: 0, longestTransactionMs: 0 };
  }
  return { ran: true, period, ...locked.result };
}

export async function billingRunRules(): Promise<BillingRunRules> {
  const settings = await getSiteSettings();
  return { ...settings.billingRules, changeNoticeHours: settings.planRules.changeNoticeHours };
}

type Run = {
  rules: BillingRunRules;
  now: Date;
  /** The first month billed here (null: none yet); months before it were billed by hand. */
  firstInvoicedMonth: string | null;
  period: string;
  /** The first day a completed service not yet billed is looked for from. */
  servicesStart: Date;
  window: { from: string; until: string };
  windowStart: Date;
  windowEnd: Date;
  issuedOn: string;
  dueOn: string;
  prices: PriceBook;
  mailContext: MailContext;
  stripeConfigured: boolean;
  batchSize: number;
  signal?: AbortSignal;
  betweenBatches?: () => Promise<void>;
  counts: Omit<BillingRunResult, "ran" | "period">;
};

export type PriceBook = {
  /** A plan's monthly price in cents for a month: the price locked on it (decision 116); null: none. */
  monthlyCents(plan: PlanToBill, month: string): number | null;
  /** A one-time service's price and name, by its visit type; null: not in the catalogue. */
  oneTime(visitType: string): { name: string; cents: number } | null;
};

export function priceBook(catalogue: readonly PlanCard[]): PriceBook {
  const bySlug = new Map(catalogue.filter((card) => card.kind === "one-time").map((card) => [card.slug, card]));
  return {
    monthlyCents(plan, month) {
      // A plan whose catalogue plan was deleted is still billed at its price (decision 116).
      const price = priceForMonth(plan, month);
      return price ? totalCents(price) : null;
    },
    oneTime(visitType) {
      const card = bySlug.get(visitTypeSlug(visitType));
      return card ? { name: card.name, cents: dollarsToCents(card.price.amount) } : null;
    },
  };
}

async function billPlans(conn: Db, run: Run) {
  const batches = keysetBatches((afterId: string | null) => listPlansToBillBatch(conn, afterId, run.batchSize), {
    batchSize: run.batchSize,
    keyOf: byId,
    signal: run.signal,
    betweenBatches: run.betweenBatches,
  });
  for await (const plans of batches) {
    run.counts.plans += plans.length;
    const invoiced = await findInvoicedPlans(
      conn,
      plans.map((plan) => plan.id),
      run.period,
    );
    const toBill = plans.filter((plan) => !invoiced.has(plan.id));
    if (toBill.length > 0) {
      const planIds = toBill.map((plan) => plan.id);
      // The visits a credit may be owed for: skips (when the owner credits them), and the
      // business's own cancellations, weather misses and payment holds (always; decision 115).
      const [toCredit, oneTimes, months, adjustments, changes, tips] = await Promise.all([
        listVisitsToCredit(conn, planIds, run.window, {
          statuses: ["skipped", "cancelled", "missed"],
          closedDayDetail: CLOSED_DAY_CANCELLED_DETAIL,
          uncreditedOnly: true,
        }),
        listUnbilledOneTimeVisits(
          conn,
          { from: run.servicesStart, until: run.windowEnd },
          { customerIds: toBill.map((plan) => plan.customer_id) },
        ),
        listMonthBilling(conn, planIds, monthOf(run.window.from), addMonths(monthOf(run.window.until), 1)),
        listUnbilledAdjustments(conn, planIds),
        listPlanChanges(conn, planIds),
        listUnbilledTips(conn, { customerIds: toBill.map((plan) => plan.customer_id) }),
      ]);
      const drafts = [
        ...(await firstMonthRemainders(conn, toBill, run)),
        ...planInvoices(toBill, { toCredit, oneTimes, months, adjustments, changes, tips }, run),
      ];
      await write(conn, run, drafts);
    }
  }
}

/**
 * With a billing day other than 1, a plan that started after the billing date of the month before
 * the one billed (its start month was billed before it existed) gets that month's remainder on an
 * invoice of its own (decision 117), as the run would have billed it: the share of the visits left
 * from its start. Not for a month before billing began here (the owner billed it by hand).
 */
async function firstMonthRemainders(conn: Db, plans: readonly PlanToBill[], run: Run): Promise<DraftInvoice[]> {
  const previous = addMonths(run.period, -1);
  if (run.rules.billingDay <= 1 || run.firstInvoicedMonth === null || previous < run.firstInvoicedMonth) return [];
  const started = plans.filter((plan) => monthOf(plan.start_date) === previous);
  if (started.length === 0) return [];
  const invoiced = await findInvoicedPlans(
    conn,
    started.map((plan) => plan.id),
    previous,
  );
  return started.flatMap((plan): DraftInvoice[] => {
    const monthly = run.prices.monthlyCents(plan, previous);
    if (invoiced.has(plan.id) || monthly === null) return [];
    const charge = monthCharge(plan, previous, monthly, run.rules.prorateFirstMonth);
    if (!charge) return [];
    return [
      {
        customerId: plan.customer_id,
        planId: plan.id,
        period: previous,
        lines: [planMonthLine(plan, previous, charge)],
      },
    ];
  });
}

/** The one-time services of customers with no plan invoice this month: an invoice of them alone. */
async function billOneTimeServicesAlone(conn: Db, run: Run) {
  const batches = keysetBatches(
    (after: { date: Date; id: string } | null) =>
      listUnbilledOneTimeVisits(
        conn,
        { from: run.servicesStart, until: run.windowEnd },
        { after, limit: run.batchSize },
      ),
    {
      batchSize: run.batchSize,
      keyOf: (last) => ({ date: last.service_date, id: last.id }),
      signal: run.signal,
      betweenBatches: run.betweenBatches,
    },
  );
  for await (const visits of batches) {
    const byCustomer = new Map<string, DraftLine[]>();
    for (const visit of visits) {
      const line = oneTimeLine(visit, run);
      if (!line) continue;
      byCustomer.set(visit.customer_id, [...(byCustomer.get(visit.customer_id) ?? []), line]);
    }
    const drafts = [...byCustomer].map(([customerId, lines]) => ({ customerId, planId: null, lines }));
    await write(conn, run, drafts);
  }
}

/**
 * Tips to go on an invoice that no plan invoice of this run took (a customer without a plan, or
 * whose plan was not billed): an invoice of tips alone (docs/decisions/131).
 */
async function billTipsAlone(conn: Db, run: Run) {
  const batches = keysetBatches((after: string | null) => listUnbilledTips(conn, { after, limit: run.batchSize }), {
    batchSize: run.batchSize,
    keyOf: byId,
    signal: run.signal,
    betweenBatches: run.betweenBatches,
  });
  for await (const tips of batches) {
    const byCustomer = groupBy(tips, (tip) => tip.customer_id);
    await write(
      conn,
      run,
      [...byCustomer].map(([customerId, own]) => ({ customerId, planId: null, lines: own.map(tipLine) })),
    );
  }
}

/** "Tip for Ana, visit Mar 4, 2028": all of it, never netted against the invoice's credits. */
function tipLine(tip: UnbilledTip): DraftLine {
  return {
    kind: "tip",
    description: tipLineDescription(tip.technician_name, formatBusinessDate(tip.service_date)),
    visitId: tip.visit_id,
    amountCents: tip.amount_cents,
  };
}

async function write(conn: Db, run: Run, drafts: DraftInvoice[]) {
  for (let start = 0; start < drafts.length; start += WRITE_CHUNK) {
    const chunk = drafts.slice(start, start + WRITE_CHUNK);
    const started = performance.now();
    const footer = run.rules.invoiceFooter || null;
    const credited = await conn.transaction().execute(async (trx) => {
      const fresh = await insertInvoices(trx, chunk, {
        period: run.period,
        issuedOn: run.issuedOn,
        dueOn: run.dueOn,
        footer,
        issuedAt: run.now,
      });
      // The plan changes' adjustments these invoices bill are billed now, in their transaction.
      const invoiceOfPlan = new Map(
        fresh.flatMap((invoice) =>
          invoice.plan_id && invoice.period_month === run.period ? [[invoice.plan_id, invoice.id]] : [],
        ),
      );
      await markAdjustmentsBilled(
        trx,
        chunk.flatMap((draft) => {
          const invoiceId = draft.planId && !draft.period ? invoiceOfPlan.get(draft.planId) : undefined;
          if (!invoiceId) return [];
          return draft.lines.flatMap((line) =>
            line.adjustmentId ? [{ adjustmentId: line.adjustmentId, invoiceId }] : [],
          );
        }),
      );
      // Credit on file pays what it can of the new invoices first ("Credit from previous invoices"),
      // and an invoice settled at issue with credits beyond its charges leaves credit on file.
      const credit = await applyCreditOnFile(
        trx,
        fresh.map((invoice) => invoice.customer_id),
        run.now,
      );
      const applied = await readCreditApplied(
        trx,
        fresh.map((invoice) => invoice.id),
      );
      const inserted = fresh.map((invoice) => ({ ...invoice, credit_applied_cents: applied.get(invoice.id) ?? 0 }));
      // Set-based: one read of the addresses and cards, one INSERT of the batch's e-mails.
      await queueInvoiceEmails(trx, inserted, {
        period: run.period,
        dueOn: run.dueOn,
        footer,
        context: run.mailContext,
        stripeConfigured: run.stripeConfigured,
      });
      run.counts.invoices += inserted.length;
      // Only an older invoice can have a "Pay now" page open.
      const issued = new Set(fresh.map((invoice) => invoice.id));
      return credit.credited.filter((id) => !issued.has(id));
    });
    run.counts.longestTransactionMs = Math.max(run.counts.longestTransactionMs, performance.now() - started);
    // Committed: an older invoice the credit paid loses its open "Pay now" page (decision 111).
    await expireStaleCheckoutsOf(conn, credited, run.now);
  }
}

type PlanBatchFacts = {
  toCredit: readonly VisitToCredit[];
  oneTimes: readonly OneTimeVisit[];
  months: readonly MonthBilled[];
  /** Plan changes' adjustments not billed yet (decision 117). */
  adjustments: readonly UnbilledAdjustment[];
  /** Plan changes with the terms before each: a visit is credited at the terms of its day. */
  changes: readonly PlanChangeTerms[];
  /** Tips for the next invoice (decision 131): on the customer's first plan invoice of the batch. */
  tips: readonly UnbilledTip[];
};

function planInvoices(plans: readonly PlanToBill[], facts: PlanBatchFacts, run: Run): DraftInvoice[] {
  const visitsOf = groupBy(facts.toCredit, (visit) => visit.plan_id!);
  const oneTimesOf = groupBy(facts.oneTimes, (visit) => visit.customer_id);
  const adjustmentsOf = groupBy(facts.adjustments, (adjustment) => adjustment.plan_id);
  const changesOf = groupBy(facts.changes, (change) => change.plan_id);
  const tipsOf = groupBy(facts.tips, (tip) => tip.customer_id);
  const monthsOf = new Map<string, Map<string, MonthBilled>>();
  for (const month of facts.months) {
    const known = monthsOf.get(month.plan_id) ?? new Map<string, MonthBilled>();
    known.set(month.month, { ...month });
    monthsOf.set(month.plan_id, known);
  }
  const drafts: DraftInvoice[] = [];
  for (const plan of plans) {
    const monthly = run.prices.monthlyCents(plan, run.period);
    if (monthly === null) {
      run.counts.unpriced += 1;
      continue;
    }
    const charge = monthCharge(plan, run.period, monthly, run.rules.prorateFirstMonth);
    if (!charge) continue;
    const lines: DraftLine[] = [planMonthLine(plan, run.period, charge)];
    // A plan change's adjustments of earlier months, either sign (decision 117).
    for (const adjustment of adjustmentsOf.get(plan.id) ?? []) {
      lines.push({
        kind: "plan_change",
        description: adjustment.description,
        visitId: null,
        amountCents: adjustment.amount_cents,
        adjustmentId: adjustment.id,
      });
    }
    // A visit not made is worth what its month was billed divided by that month's visits, and a
    // month's credits never exceed what it was billed (docs/decisions/113, 115); a month a plan
    // change touched, the rate of the terms in force on its day (decision 117). One rule, in
    // visit-credits.ts, for the invoice's credit lines and a cancellation's credit note.
    const candidates = (visitsOf.get(plan.id) ?? []).flatMap((visit) => candidateOf(visit) ?? []);
    const credits = creditVisits(plan, candidates, {
      noticeHours: run.rules.changeNoticeHours,
      creditSkips: run.rules.creditSkippedVisits,
      monthBilled: monthBilledFrom(monthsOf.get(plan.id) ?? new Map(), plan, {
        firstInvoicedMonth: run.firstInvoicedMonth,
        monthlyCents: monthly,
        prorateFirstMonth: run.rules.prorateFirstMonth,
      }),
      termsOn: termsOnFrom(changesOf.get(plan.id) ?? [], plan),
    });
    for (const credit of credits) {
      lines.push({
        kind: "skip_credit",
        description: credit.description,
        visitId: credit.visitId,
        amountCents: -credit.amountCents,
      });
    }
    for (const visit of oneTimesOf.get(plan.customer_id) ?? []) {
      const line = oneTimeLine(visit, run);
      if (line) lines.push(line);
    }
    // A customer's tips go on one invoice: the first of their plans billed here.
    lines.push(...(tipsOf.get(plan.customer_id) ?? []).map(tipLine));
    tipsOf.delete(plan.customer_id);
    drafts.push({ customerId: plan.customer_id, planId: plan.id, lines });
  }
  return drafts;
}

/**
 * The line of a plan's month: the whole month, or its share by the visits left from its start.
 * Also the first month a sign-up at /start pays on its first day (decision 129).
 */
export function planMonthLine(
  plan: Pick<PlanToBill, "catalogue_plan_name" | "start_date">,
  period: string,
  charge: NonNullable<ReturnType<typeof monthCharge>>,
): DraftLine {
  const month = monthName(period);
  return {
    kind: charge.kind,
    description:
      charge.kind === "plan_month"
        ? `${plan.catalogue_plan_name}, ${month}`
        : `${plan.catalogue_plan_name}, ${month}: ${charge.visits} of ${charge.of} visits (from ${dayName(plan.start_date)})`,
    visitId: null,
    amountCents: charge.amountCents,
  };
}

function oneTimeLine(visit: OneTimeVisit, run: Run): DraftLine | null {
  if (PLAN_VISIT_TYPES.has(visit.service_type)) {
    // A return visit that made up a plan visit credited when it was missed (a weather miss
    // credited at once, or on an invoice before we came back): the visit was had after all, so
    // its credit is taken back, once, on the next invoice (decision 125). The Terms' "at no
    // extra charge": it bills what was credited, never more; a miss not credited bills nothing.
    if (!visit.made_up || visit.made_up.credited_cents <= 0) return null;
    return {
      kind: "one_time_service",
      description: `Return visit on ${formatBusinessDate(visit.service_date)} for the visit of ${formatBusinessDate(visit.made_up.service_date)}: its credit taken back`,
      visitId: visit.id,
      amountCents: visit.made_up.credited_cents,
    };
  }
  const price = run.prices.oneTime(visit.service_type);
  if (!price) return null;
  return {
    kind: "one_time_service",
    description: `${price.name} on ${formatBusinessDate(visit.service_date)}`,
    visitId: visit.id,
    amountCents: price.cents,
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "March 2027" for "2027-03-01". */
function monthName(period: string): string {
  return monthFormat.format(new Date(`${period}T00:00:00Z`));
}
