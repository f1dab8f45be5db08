import {
  currentPeriod,
  dollarsToCents,
  monthCharge,
  perVisitCents,
  settlementWindow,
  visitTypeSlug,
} from "./billing-rules";
import { queueInvoiceEmails } from "./billing-emails.server";
import { billingMailContext } from "./payment-recovery-emails.server";
import type { MailContext } from "./payment-recovery-emails.server";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { estimateMonthlyPrice } from "~/content/pricing";
import type { AddOn, BillingRules, PlanCard } from "~/content/types";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import {
  insertInvoices,
  listPlansToBillBatch,
  listUncreditedSkips,
  listUnbilledOneTimeVisits,
  findInvoicedPlans,
  type DraftInvoice,
  type DraftLine,
  type OneTimeVisit,
  type PlanToBill,
  type SkippedVisit,
} from "~/models/invoice-run.server";
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
 * previous billing date to this one), plus each completed one-time service of those days. A
 * customer with one-time services and no plan invoice that month gets an invoice of them alone.
 * Missed visits (locked gate, dog in yard: the Terms' denied access) are never credited.
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
  /** Plans left unbilled: their catalogue plan has no monthly price in Sanity. */
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
  const run: Run = {
    rules,
    period,
    window,
    windowStart: startOfBusinessDay(window.from)!,
    windowEnd: startOfBusinessDay(window.until)!,
    issuedOn: today,
    dueOn: today > period ? today : period,
    prices: priceBook(catalogue, addOns),
    mailContext,
    stripeConfigured: options.stripeConfigured ?? isStripeConfigured(),
    batchSize: options.batchSize ?? PLAN_BATCH,
    signal: options.signal,
    betweenBatches: options.betweenBatches,
    counts: { plans: 0, invoices: 0, unpriced: 0, longestTransactionMs: 0 },
  };
  const locked = await withAdvisoryLock(db, options.lockName ?? BILLING_RUN_LOCK, async (conn) => {
    await billPlans(conn, run);
    await billOneTimeServicesAlone(conn, run);
    return run.counts;
  });
  if (!locked.acquired) {
    return { ran: false, period, plans: 0, invoices: 0, unpriced: 0, longestTransactionMs: 0 };
  }
  return { ran: true, period, ...locked.result };
}

async function billingRunRules(): Promise<BillingRunRules> {
  const settings = await getSiteSettings();
  return { ...settings.billingRules, changeNoticeHours: settings.planRules.changeNoticeHours };
}

type Run = {
  rules: BillingRunRules;
  period: string;
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

type PriceBook = {
  /** A plan's monthly price in cents, by its catalogue plan and dog count; null: not priced. */
  monthlyCents(plan: PlanToBill): number | null;
  /** A one-time service's price and name, by its visit type; null: not in the catalogue. */
  oneTime(visitType: string): { name: string; cents: number } | null;
};

function priceBook(catalogue: readonly PlanCard[], addOns: readonly AddOn[]): PriceBook {
  const byId = new Map(catalogue.map((card) => [card._id, card]));
  const bySlug = new Map(catalogue.filter((card) => card.kind === "one-time").map((card) => [card.slug, card]));
  return {
    monthlyCents(plan) {
      const card = byId.get(plan.catalogue_plan_id);
      if (!card) return null;
      const amount = estimateMonthlyPrice(card.price, plan.dog_count, addOns);
      return amount === null ? null : dollarsToCents(amount);
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
      const [skips, oneTimes] = await Promise.all([
        run.rules.creditSkippedVisits
          ? listUncreditedSkips(
              conn,
              toBill.map((plan) => plan.id),
              run.window.from,
              run.window.until,
            )
          : Promise.resolve([]),
        listUnbilledOneTimeVisits(
          conn,
          { from: run.windowStart, until: run.windowEnd },
          { customerIds: toBill.map((plan) => plan.customer_id) },
        ),
      ]);
      const drafts = planInvoices(toBill, skips, oneTimes, run);
      await write(conn, run, drafts);
    }
  }
}

/** The one-time services of customers with no plan invoice this month: an invoice of them alone. */
async function billOneTimeServicesAlone(conn: Db, run: Run) {
  const batches = keysetBatches(
    (after: { date: Date; id: string } | null) =>
      listUnbilledOneTimeVisits(conn, { from: run.windowStart, until: run.windowEnd }, { after, limit: run.batchSize }),
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

async function write(conn: Db, run: Run, drafts: DraftInvoice[]) {
  for (let start = 0; start < drafts.length; start += WRITE_CHUNK) {
    const chunk = drafts.slice(start, start + WRITE_CHUNK);
    const started = performance.now();
    const footer = run.rules.invoiceFooter || null;
    await conn.transaction().execute(async (trx) => {
      const inserted = await insertInvoices(trx, chunk, {
        period: run.period,
        issuedOn: run.issuedOn,
        dueOn: run.dueOn,
        footer,
      });
      // Set-based: one read of the addresses and cards, one INSERT of the batch's e-mails.
      await queueInvoiceEmails(trx, inserted, {
        period: run.period,
        dueOn: run.dueOn,
        footer,
        context: run.mailContext,
        stripeConfigured: run.stripeConfigured,
      });
      run.counts.invoices += inserted.length;
    });
    run.counts.longestTransactionMs = Math.max(run.counts.longestTransactionMs, performance.now() - started);
  }
}

function planInvoices(
  plans: readonly PlanToBill[],
  skips: readonly SkippedVisit[],
  oneTimes: readonly OneTimeVisit[],
  run: Run,
): DraftInvoice[] {
  const skipsOf = groupBy(skips, (skip) => skip.plan_id!);
  const oneTimesOf = groupBy(oneTimes, (visit) => visit.customer_id);
  const drafts: DraftInvoice[] = [];
  for (const plan of plans) {
    const monthly = run.prices.monthlyCents(plan);
    if (monthly === null) {
      run.counts.unpriced += 1;
      continue;
    }
    const charge = monthCharge(plan, run.period, monthly, run.rules.prorateFirstMonth);
    if (!charge) continue;
    const month = monthName(run.period);
    const lines: DraftLine[] = [
      {
        kind: charge.kind,
        description:
          charge.kind === "plan_month"
            ? `${plan.catalogue_plan_name}, ${month}`
            : `${plan.catalogue_plan_name}, ${month}: ${charge.visits} of ${charge.of} visits (from ${dayName(plan.start_date)})`,
        visitId: null,
        amountCents: charge.amountCents,
      },
    ];
    const rate = perVisitCents(monthly, plan.visits_per_week);
    for (const skip of skipsOf.get(plan.id) ?? []) {
      if (!skippedWithNotice(skip, run.rules.changeNoticeHours)) continue;
      lines.push({
        kind: "skip_credit",
        description: `Credit: visit of ${dayName(skip.plan_slot)} skipped with notice`,
        visitId: skip.id,
        amountCents: -rate,
      });
    }
    for (const visit of oneTimesOf.get(plan.customer_id) ?? []) {
      const line = oneTimeLine(visit, run);
      if (line) lines.push(line);
    }
    drafts.push({ customerId: plan.customer_id, planId: plan.id, lines });
  }
  return drafts;
}

/**
 * A skip is credited when the customer (or the owner, or a pause) made it at least the change
 * notice before the visit; a late skip an admin made for a customer who phoned, and a skip for an
 * overdue payment, are not.
 */
function skippedWithNotice(skip: SkippedVisit, noticeHours: number): boolean {
  if (skip.skip_reason === "payment_overdue") return false;
  return skip.service_date.getTime() - new Date(skip.skipped_at).getTime() >= noticeHours * 3_600_000;
}

function oneTimeLine(visit: OneTimeVisit, run: Run): DraftLine | null {
  if (PLAN_VISIT_TYPES.has(visit.service_type)) return null;
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
const dayFormat = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

/** "March 2027" for "2027-03-01". */
function monthName(period: string): string {
  return monthFormat.format(new Date(`${period}T00:00:00Z`));
}
/** "March 17" for "2027-03-17". */
function dayName(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}
