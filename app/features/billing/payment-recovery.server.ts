import pLimit from "p-limit";
import {
  paymentFailedEmail,
  recoveryContext,
  servicePausedEmail,
  type RecoveryContext,
} from "./payment-recovery-emails.server";
import { afterInvoiceSettled, customerEmail } from "./payment-resume.server";
import { chargeInvoiceOffSession, UNREACHABLE, type ChargeOutcome } from "./stripe-charge.server";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import { holdPlanForPayment } from "~/features/plans/plan-changes.server";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import {
  hasChargeFailureForIntent,
  insertChargeFailure,
  listFirstChargesBatch,
  listPausesDueBatch,
  listRetriesBatch,
  setInvoiceCollection,
  type InvoiceToCharge,
} from "~/models/invoice-collection.server";
import { lockInvoice } from "~/models/invoice.server";
import { withAdvisoryLock } from "~/utils/advisory-lock.server";
import { getDb, type Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { byId, keysetBatches } from "~/utils/keyset-batches.server";
import { errorFields, log } from "~/utils/logger.server";
import { isStripeConfigured } from "~/utils/stripe.server";

/**
 * Failed payments are recovered, never silently cancelled (issue 27 item 4, docs/decisions/104):
 * - a failed charge is recorded once (per attempt and per PaymentIntent) and the customer is
 *   e-mailed at once with the reason and a link to update the card;
 * - the collection job charges open invoices on their due day and retries a failed one 3 days
 *   after the first failure and 5 days after the second (days 3 and 8);
 * - `graceDays` after the first failure the invoice's plan is held: its visits are skipped
 *   "payment_overdue" (the plans feature's own workflow) and the customer told;
 * - when the invoice is paid by any path (`afterInvoiceSettled`, called inside every payment's
 *   transaction) the hold ends, its skips from now on are undone and the customer told.
 */

/** Days from one failure to the next try: after the first failure 3, after the second 5; then none. */
export const RETRY_AFTER_DAYS = [3, 5] as const;
/** A first charge missed (the machine was down) is still made within this many days of the due day. */
const FIRST_CHARGE_CATCH_UP_DAYS = 7;
const BATCH = 200;
/**
 * Charges in flight at once (issue 34 item 10, docs/decisions/112). One at a time, 100,000 cards at
 * Stripe's ~20-50 ms a call took over an hour; 8 overlap Stripe's answers while the database work
 * of each (a few short statements on the job's one connection) stays small beside them.
 */
export const COLLECTION_CONCURRENCY = 8;
/**
 * How long one round may start charges (docs/decisions/112): the invoices it did not reach stay
 * due and are charged by the next round (hourly, or `npm run billing:collect` again). Charges in
 * flight when it is spent are finished, never dropped. The collection's goal (15 min for 100k):
 * the bench's 100k took 13.5 min at 8 at once, so a first of the month fits one round.
 */
export const COLLECTION_BUDGET_MS = 15 * 60_000;
export const PAYMENT_COLLECTION_LOCK = "swift-scoop:payment-collection";
const DEFAULT_REASON = "Your card was declined.";

export type { ChargeOutcome, RecoveryContext };
/** The off-session charge: Stripe's (stripe-charge.server.ts) unless a test passes its own. */
export type ChargeInvoice = (
  db: Db,
  input: { invoiceId: string; attempt: number; now: Date },
) => Promise<ChargeOutcome>;

/** The business day `graceDays` after the first failure: the plan is held from it. */
export function pauseDay(firstFailedAt: Date, graceDays: number) {
  return addDays(businessToday(firstFailedAt), graceDays);
}

export type NotePaymentFailedInput = {
  invoiceId: string;
  reason: string | null;
  paymentIntentId: string | null;
  /** The attempt that failed, when the caller knows it (the job does; a webhook may not). */
  attempt?: number;
  /** The customer's own "Pay now" (a Checkout payment), not a charge of the card on file. */
  payNow?: boolean;
  now: Date;
  context?: RecoveryContext;
};

/**
 * Records a failed charge of an invoice in one transaction that locks it: the failure (once per
 * attempt and per PaymentIntent: a replayed webhook finds it and changes nothing), the next try,
 * and the customer's e-mail with the reason and the "Update card" link. A failure reported for
 * an invoice that is no longer open (paid meanwhile, voided) is ignored. `{ recorded: false }`:
 * nothing new was stored.
 */
export async function notePaymentFailed(db: Db, input: NotePaymentFailedInput): Promise<{ recorded: boolean }> {
  const context = input.context ?? (await recoveryContext());
  const reason = input.reason?.trim().slice(0, 500) || DEFAULT_REASON;
  const write = async (trx: Db) => {
    const invoice = await lockInvoice(trx, input.invoiceId);
    if (!invoice || invoice.status !== "open") return { recorded: false };
    // A "Pay now" declined before the invoice is due is not a missed payment (decision 117):
    // Stripe's page told the customer, and nothing is late yet, so no retry, no pause countdown
    // and no e-mail; the collection charges the card on file on the due day as usual.
    if (input.payNow && invoice.due_on !== null && businessToday(input.now) < String(invoice.due_on).slice(0, 10)) {
      log.info("billing.payment_failed_before_due", { invoiceId: invoice.id, dueOn: invoice.due_on });
      return { recorded: false };
    }
    if (input.paymentIntentId && (await hasChargeFailureForIntent(trx, input.paymentIntentId))) {
      return { recorded: false };
    }
    const attempt = input.attempt ?? (await unknownAttempt(trx, invoice.id, invoice.charge_attempts));
    const id = await insertChargeFailure(trx, {
      invoiceId: invoice.id,
      attempt,
      paymentIntentId: input.paymentIntentId,
      reason,
      failedAt: input.now,
    });
    if (id === null) return { recorded: false };
    const today = businessToday(input.now);
    // Only the latest attempt schedules the next: a late report of an earlier one changes nothing.
    const latest = attempt >= invoice.charge_attempts;
    const after = RETRY_AFTER_DAYS[attempt - 1];
    const nextChargeOn = latest ? (after === undefined ? null : addDays(today, after)) : invoice.next_charge_on;
    const firstFailedAt = invoice.first_failed_at ?? input.now;
    await setInvoiceCollection(trx, invoice.id, {
      charge_attempts: Math.max(invoice.charge_attempts, attempt),
      first_failed_at: firstFailedAt,
      last_failed_at: input.now,
      last_failure_reason: reason,
      next_charge_on: nextChargeOn,
    });
    const customer = await customerEmail(trx, invoice.customer_id);
    if (customer) {
      const email = paymentFailedEmail(context, {
        number: invoice.number,
        owedCents: invoice.total_cents - invoice.paid_cents,
        reason,
        nextChargeOn,
        pauseOn: invoice.plan_id && !invoice.plan_paused_at ? pauseDay(firstFailedAt, context.graceDays) : null,
        paused: invoice.plan_paused_at !== null && invoice.plan_resumed_at === null,
      });
      await enqueueEmail(trx, {
        ...email,
        to: customer,
        dedupeKey: `payment-failed:${invoice.id}:${attempt}`,
        relatedId: invoice.id,
      });
    }
    return { recorded: true };
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

/**
 * The attempt a failure without one belongs to (a webhook): the latest attempt made when it has
 * no failure yet (it was "processing"), else the next one.
 */
async function unknownAttempt(trx: Db, invoiceId: string, attempts: number) {
  if (attempts === 0) return 1;
  const known = await trx
    .selectFrom("invoice_charge_failures")
    .select("id")
    .where("invoice_id", "=", invoiceId)
    .where("attempt", "=", attempts)
    .executeTakeFirst();
  return known ? attempts + 1 : attempts;
}

/**
 * Holds the plan of an invoice still unpaid `graceDays` after its first failure: its visits from
 * today are skipped "payment_overdue" and the customer told. One short transaction, the invoice
 * locked first (then the plan, as a payment does).
 */
async function pauseForInvoice(conn: Db, invoiceId: string, now: Date, context: RecoveryContext) {
  return conn.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, invoiceId);
    if (!invoice || invoice.status !== "open" || !invoice.plan_id || invoice.plan_paused_at) return false;
    if (!invoice.first_failed_at || pauseDay(invoice.first_failed_at, context.graceDays) > businessToday(now)) {
      return false;
    }
    const held = await holdPlanForPayment(trx, {
      planId: invoice.plan_id,
      now,
      detail: `Payment overdue: invoice ${invoice.number}`,
      rules: context.planRules,
    });
    // Marked even when another unpaid invoice held the plan first: both must be paid to resume.
    await setInvoiceCollection(trx, invoice.id, { plan_paused_at: now });
    if (!held) return false;
    const customer = await customerEmail(trx, invoice.customer_id);
    if (customer) {
      await enqueueEmail(trx, {
        ...servicePausedEmail(context, {
          number: invoice.number,
          owedCents: invoice.total_cents - invoice.paid_cents,
          from: businessToday(now),
        }),
        to: customer,
        dedupeKey: `payment-paused:${invoice.id}`,
        relatedId: invoice.id,
      });
    }
    return true;
  });
}

export type CollectionOptions = {
  now: Date;
  db?: Db;
  context?: RecoveryContext;
  /** The off-session charge; by default Stripe's (stripe-charge.server.ts). */
  charge?: ChargeInvoice;
  /** Whether Stripe is set up; by default from the environment. */
  stripeConfigured?: boolean;
  signal?: AbortSignal;
  batchSize?: number;
  /** Charges in flight at once; by default COLLECTION_CONCURRENCY. */
  concurrency?: number;
  /** How long the round may start charges, in ms; by default COLLECTION_BUDGET_MS. */
  budgetMs?: number;
  /**
   * Whether the charges' database work runs on the pool (each statement or short transaction
   * takes a connection as it needs one) instead of the job's one pinned connection, which then
   * carries only the lock and the keyset reads. On PostgreSQL the 8 charges' statements then
   * overlap too; PGlite has one connection, which the lock pins, so there it must stay off.
   * By default: on with DATABASE_URL (PostgreSQL), off without (PGlite).
   */
  pooled?: boolean;
  /** Tests only: the clock the budget is read on (ms), by default performance.now. */
  clock?: () => number;
  /** Tests only: another lock name. */
  lockName?: string;
};

export type CollectionResult = {
  ran: boolean;
  charged: number;
  succeeded: number;
  failed: number;
  paused: number;
  /** True when the round's time budget ran out: invoices still due were left to the next round. */
  budgetSpent?: boolean;
};

type Counts = Omit<CollectionResult, "ran" | "budgetSpent">;

/**
 * The collection job (hourly after the billing run, and `npm run billing:collect`): one at a time
 * across machines (an advisory lock); invoices read in keyset batches outside any transaction;
 * each charge is a network call outside any transaction and its outcome a short one of its own.
 * With Stripe: first charges of invoices due (within a week of their due day) never tried, and
 * retries due, up to `concurrency` at once and within the round's time budget; then, Stripe or
 * not, the pauses due (these are not budgeted: a pause is one short transaction, no network).
 *
 * Never one invoice charged twice: within a list each invoice is read once (keyset by id, every
 * later batch after the last id); the retries are read only once every first charge has its
 * outcome recorded, so an invoice in both lists (a new card marks a never-tried one due) is
 * seen again only as it then is; a charge the budget did not start is not made (the next round
 * finds it still due); and each attempt has its own idempotency key at Stripe.
 */
export async function runPaymentCollection(options: CollectionOptions): Promise<CollectionResult> {
  const db = options.db ?? (await getDb());
  const context = options.context ?? (await recoveryContext());
  const counts: Counts = { charged: 0, succeeded: 0, failed: 0, paused: 0 };
  let budgetSpent = false;
  const locked = await withAdvisoryLock(db, options.lockName ?? PAYMENT_COLLECTION_LOCK, async (conn) => {
    const today = businessToday(options.now);
    const batchSize = options.batchSize ?? BATCH;
    const stripe = options.stripeConfigured ?? isStripeConfigured();
    if (stripe) {
      const charge = options.charge ?? chargeInvoiceOffSession;
      const chargeDb = (options.pooled ?? Boolean(getEnv().DATABASE_URL)) ? db : conn;
      const clock = options.clock ?? (() => performance.now());
      const deadline = clock() + (options.budgetMs ?? COLLECTION_BUDGET_MS);
      const from = addDays(today, -FIRST_CHARGE_CATCH_UP_DAYS);
      const firsts = (after: string | null) => listFirstChargesBatch(conn, { from, today }, after, batchSize);
      const retries = (after: string | null) => listRetriesBatch(conn, today, after, batchSize);
      for (const list of [firsts, retries]) {
        const ended = await chargeList(list, {
          concurrency: options.concurrency ?? COLLECTION_CONCURRENCY,
          batchSize,
          signal: options.signal,
          outOfTime: () => {
            if (clock() < deadline) return false;
            budgetSpent = true;
            return true;
          },
          collect: (invoice) => collectInvoice(chargeDb, invoice, options.now, { charge, context, counts }),
        });
        // Stripe not set up after all, or the server stopping: nothing more this round (as
        // before). The budget spent: no more charges, but the pauses below are still made.
        if (ended === "not_configured" || ended === "aborted") return counts;
        if (ended === "out_of_time") break;
      }
    }
    const graceDays = context.graceDays;
    // First failures before the start of (today - graceDays + 1): their pause day is today or earlier.
    const failedBy = new Date(startOfBusinessDay(addDays(today, 1 - graceDays))!.getTime() - 1);
    const pausesDue = (after: string | null) => listPausesDueBatch(conn, failedBy, after, batchSize);
    for await (const batch of keysetBatches(pausesDue, { batchSize, keyOf: byId, signal: options.signal })) {
      for (const { id } of batch) {
        if (await pauseForInvoice(conn, id, options.now, context)) counts.paused += 1;
      }
    }
    return counts;
  });
  if (!locked.acquired) return { ran: false, ...noCounts(), budgetSpent: false };
  return { ran: true, ...locked.result, budgetSpent };
}

/**
 * Charges every invoice of one list, `concurrency` at a time, reading the next keyset batch once
 * the queue is down to the charges in flight (so at most one batch waits in memory). A charge is
 * started only while there is time and no stop was asked for; every charge started is awaited
 * before this returns. The first error stops the list (no new charge starts) and is thrown
 * once the others in flight have ended.
 */
async function chargeList(
  list: (after: string | null) => Promise<InvoiceToCharge[]>,
  options: {
    concurrency: number;
    batchSize: number;
    signal?: AbortSignal;
    outOfTime: () => boolean;
    collect: (invoice: InvoiceToCharge) => Promise<ChargeOutcome | null>;
  },
): Promise<"done" | "not_configured" | "aborted" | "out_of_time"> {
  const limit = pLimit(options.concurrency);
  const running = new Set<Promise<void>>();
  let ended: "not_configured" | "aborted" | "out_of_time" | null = null;
  let failure: { error: unknown } | null = null;
  // Asked before every start: a charge queued when the round must end is not made.
  const mayStart = () => {
    if (ended !== null || failure !== null) return false;
    if (options.signal?.aborted) ended = "aborted";
    else if (options.outOfTime()) ended = "out_of_time";
    return ended === null;
  };
  const batches = keysetBatches(list, { batchSize: options.batchSize, keyOf: byId, signal: options.signal });
  for await (const batch of batches) {
    for (const invoice of batch) {
      if (!mayStart()) break;
      const task: Promise<void> = limit(async () => {
        if (!mayStart()) return;
        const outcome = await options.collect(invoice);
        if (outcome?.kind === "not_configured") ended ??= "not_configured";
      })
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => running.delete(task));
      running.add(task);
    }
    while (running.size > options.concurrency) await Promise.race(running);
    if (ended !== null || failure !== null) break;
  }
  await Promise.all(running);
  if (failure !== null) throw (failure as { error: unknown }).error;
  return ended ?? (options.signal?.aborted ? "aborted" : "done");
}

const noCounts = (): Counts => ({ charged: 0, succeeded: 0, failed: 0, paused: 0 });

/**
 * One off-session charge of an invoice and what follows from its outcome (the payment and the
 * resume, the failure and its e-mail, or nothing when Stripe was out of reach). Null: the charge
 * threw and nothing was recorded (the next run tries again). Used by the collection job and when
 * a new card is put on file (new-card-charge.server.ts).
 */
export async function collectInvoice(
  conn: Db,
  invoice: InvoiceToCharge,
  now: Date,
  options: { charge?: ChargeInvoice; context?: RecoveryContext; counts?: Counts } = {},
): Promise<ChargeOutcome | null> {
  const charge = options.charge ?? chargeInvoiceOffSession;
  const counts = options.counts ?? noCounts();
  const attempt = invoice.charge_attempts + 1;
  let outcome: ChargeOutcome;
  try {
    outcome = await charge(conn, { invoiceId: invoice.id, attempt, now });
  } catch (error) {
    // Stripe unreachable, say: nothing is recorded and the next run tries again.
    log.warn("payment_collection.charge_failed", { invoiceId: invoice.id, attempt, ...errorFields(error) });
    return null;
  }
  switch (outcome.kind) {
    // key_conflict: logged by the charge; nothing recorded, no attempt counted (the earlier
    // request's webhook settles it). in_flight: a charge is at the bank already (decision 111).
    // disputed: a payment of it is contested at the customer's bank (118).
    case "not_configured":
    case "key_conflict":
    case "in_flight":
    case "disputed":
      return outcome;
    case "no_card":
      // Nothing to charge: the customer pays with "Pay now". A retry waits a day for a new card.
      if (invoice.charge_attempts > 0) {
        await setInvoiceCollection(conn, invoice.id, { next_charge_on: addDays(businessToday(now), 1) });
      }
      return outcome;
    case "succeeded":
      counts.charged += 1;
      counts.succeeded += 1;
      // The charge recorded the payment (and, through recordPayment, the resume); this makes
      // sure of the rest whichever way it was recorded.
      await conn.transaction().execute(async (trx) => {
        const locked = await lockInvoice(trx, invoice.id);
        if (locked && locked.charge_attempts < attempt) {
          await setInvoiceCollection(trx, invoice.id, { charge_attempts: attempt });
        }
        await afterInvoiceSettled(trx, { invoiceId: invoice.id, now, context: options.context });
      });
      return outcome;
    case "processing":
      counts.charged += 1;
      // The bank answers later, by webhook: no try until then.
      await setInvoiceCollection(conn, invoice.id, { charge_attempts: attempt, next_charge_on: null });
      return outcome;
    case "failed":
      if (outcome.paymentIntentId === null && outcome.reason === UNREACHABLE) {
        // Our side, not the card's: no attempt counted, no e-mail; the next run tries again.
        log.warn("payment_collection.stripe_unreachable", { invoiceId: invoice.id, attempt });
        return outcome;
      }
      counts.charged += 1;
      counts.failed += 1;
      await notePaymentFailed(conn, {
        invoiceId: invoice.id,
        reason: outcome.reason,
        paymentIntentId: outcome.paymentIntentId,
        attempt,
        now,
        context: options.context,
      });
      return outcome;
  }
}
