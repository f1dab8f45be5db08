import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../../db/schema";
import type { Db } from "~/utils/db.server";

/**
 * Table access for Stripe (docs/decisions/103): who a user is at Stripe and their card on file,
 * the webhook events seen, and the failed PaymentIntents' reasons. Every function takes the
 * caller's handle.
 */

export async function getStripeCustomer(db: Db, userId: string) {
  return db.selectFrom("stripe_customers").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

export async function findUserByStripeCustomer(db: Db, stripeCustomerId: string) {
  return db
    .selectFrom("stripe_customers")
    .selectAll()
    .where("stripe_customer_id", "=", stripeCustomerId)
    .executeTakeFirst();
}

/** Keeps the first Stripe customer made for a user (two tabs at once make one row). */
export async function insertStripeCustomer(db: Db, userId: string, stripeCustomerId: string) {
  await db
    .insertInto("stripe_customers")
    .values({ user_id: userId, stripe_customer_id: stripeCustomerId })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  return getStripeCustomer(db, userId);
}

export type CardOnFile = {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  addedAt: Date;
};

/**
 * Stores the card unless a newer one is on file already. `changed`: it is another card than the
 * one on file (the row locked while compared, so of two callers storing the same new card, the
 * way back from Checkout and its webhook, one only sees it change). Run it in the caller's
 * transaction to act on the change in the same one.
 */
export async function setCardOnFile(
  db: Db,
  stripeCustomerId: string,
  card: CardOnFile,
  now: Date,
): Promise<{ stored: boolean; changed: boolean }> {
  const write = async (trx: Db) => {
    const current = await trx
      .selectFrom("stripe_customers")
      .select(["payment_method_id", "card_added_at"])
      .where("stripe_customer_id", "=", stripeCustomerId)
      .forUpdate()
      .executeTakeFirst();
    if (!current || (current.card_added_at !== null && current.card_added_at > card.addedAt)) {
      return { stored: false, changed: false };
    }
    await trx
      .updateTable("stripe_customers")
      .set({
        payment_method_id: card.paymentMethodId,
        card_brand: card.brand,
        card_last4: card.last4,
        card_exp_month: card.expMonth,
        card_exp_year: card.expYear,
        card_added_at: card.addedAt,
        updated_at: now,
      })
      .where("stripe_customer_id", "=", stripeCustomerId)
      .execute();
    return { stored: true, changed: current.payment_method_id !== card.paymentMethodId };
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

/** Stores a webhook event's id: true the first time, false for a replay. */
export async function recordStripeEvent(db: Db, id: string, type: string): Promise<boolean> {
  const row = await db
    .insertInto("stripe_events")
    .values({ id, type: type.slice(0, 100) })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Stripe retries an event for up to three days and a signature is good for five minutes, so an
 * event id older than this can never arrive again: its row only grows the table.
 */
export const STRIPE_EVENT_KEEP_DAYS = 30;

/** Deletes the ids of events received more than STRIPE_EVENT_KEEP_DAYS ago; how many went. */
export async function purgeOldStripeEvents(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("stripe_events")
    .where("received_at", "<", new Date(now.getTime() - STRIPE_EVENT_KEEP_DAYS * 24 * 60 * 60 * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findPaymentByIntent(db: Db, paymentIntentId: string) {
  return db
    .selectFrom("payments")
    .select(["id", "invoice_id", "amount_cents", "refunded_cents", "disputed_at", "dispute_closed_at"])
    .where("stripe_payment_intent_id", "=", paymentIntentId)
    .executeTakeFirst();
}

export type DisputeSeen = {
  /** Stripe's dispute id (du_… or dp_…). */
  disputeId: string;
  paymentId: string;
  /** Stripe's status as read now. */
  status: string;
  /** Stripe's dispute fee, net of a fee given back (never below 0). */
  feeCents: number;
};

/**
 * A dispute opened (docs/decisions/118, 121): its row is stored once, and a dispute not seen
 * before marks the payment disputed (again, if an earlier dispute of it closed), so its invoice's
 * charges are held while it is open. True when it was new. A replayed or late event of a dispute
 * already stored only refreshes an open one's fee; one Stripe closed stays closed.
 */
export async function markPaymentDisputed(db: Db, dispute: DisputeSeen, note: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto("payment_disputes")
    .values({
      stripe_dispute_id: dispute.disputeId,
      payment_id: dispute.paymentId,
      status: dispute.status.slice(0, 40),
      fee_cents: dispute.feeCents,
      opened_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column("stripe_dispute_id").doNothing())
    .returning("stripe_dispute_id")
    .executeTakeFirst();
  if (!inserted) {
    await db
      .updateTable("payment_disputes")
      .set({ fee_cents: dispute.feeCents, updated_at: at })
      .where("stripe_dispute_id", "=", dispute.disputeId)
      .where("closed_at", "is", null)
      .execute();
    return false;
  }
  await db
    .updateTable("payments")
    .set({ disputed_at: at, dispute_closed_at: null, dispute_note: note.slice(0, 500) })
    .where("id", "=", dispute.paymentId)
    .execute();
  return true;
}

/**
 * Stripe closed a dispute (won, lost, a warning closed; docs/decisions/118, 121): its row closed
 * (stored closed if its opening never came) with Stripe's status and net fee now. The payment's
 * dispute ends, so its invoice may be charged again, only once none of its disputes is open; a
 * close whose opening never arrived marks both. True when this call closed the dispute (false for
 * a replay of one closed before).
 */
export async function markPaymentDisputeClosed(db: Db, dispute: DisputeSeen, note: string, at: Date): Promise<boolean> {
  const known = await db
    .selectFrom("payment_disputes")
    .select("closed_at")
    .where("stripe_dispute_id", "=", dispute.disputeId)
    .forUpdate()
    .executeTakeFirst();
  const status = dispute.status.slice(0, 40);
  if (known) {
    await db
      .updateTable("payment_disputes")
      .set((eb) => ({
        status,
        fee_cents: dispute.feeCents,
        closed_at: eb.fn.coalesce("closed_at", eb.val(at)),
        updated_at: at,
      }))
      .where("stripe_dispute_id", "=", dispute.disputeId)
      .execute();
    if (known.closed_at !== null) return false;
  } else {
    const inserted = await db
      .insertInto("payment_disputes")
      .values({
        stripe_dispute_id: dispute.disputeId,
        payment_id: dispute.paymentId,
        status,
        fee_cents: dispute.feeCents,
        opened_at: at,
        closed_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column("stripe_dispute_id").doNothing())
      .returning("stripe_dispute_id")
      .executeTakeFirst();
    if (!inserted) return false;
  }
  await db
    .updateTable("payments")
    .set((eb) => ({
      disputed_at: eb.fn.coalesce("disputed_at", eb.val(at)),
      dispute_closed_at: at,
      dispute_note: note.slice(0, 500),
    }))
    .where("id", "=", dispute.paymentId)
    .where("dispute_closed_at", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("payment_disputes as other")
            .select("other.stripe_dispute_id")
            .whereRef("other.payment_id", "=", "payments.id")
            .where("other.closed_at", "is", null),
        ),
      ),
    )
    .execute();
  return true;
}

/**
 * Where-clause on `invoices`: a payment of the invoice is under a dispute still open at the
 * customer's bank (docs/decisions/118), so its card is not charged meanwhile (the partial index
 * payments_open_dispute_idx holds the few such payments).
 */
export function underOpenDispute(eb: ExpressionBuilder<Database, "invoices">): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom("payments as dp")
      .select("dp.id")
      .whereRef("dp.invoice_id", "=", "invoices.id")
      .where("dp.disputed_at", "is not", null)
      .where("dp.dispute_closed_at", "is", null),
  );
}

export async function hasOpenDispute(db: Db, invoiceId: string): Promise<boolean> {
  const row = await db
    .selectFrom("invoices")
    .select("id")
    .where("id", "=", invoiceId)
    .where(underOpenDispute)
    .executeTakeFirst();
  return row !== undefined;
}

/** One row per failed PaymentIntent (the latest reason); without an intent, one row per report. */
export async function insertPaymentFailure(
  db: Db,
  failure: { invoiceId: string; paymentIntentId: string | null; reason: string; failedAt: Date },
) {
  const values = {
    invoice_id: failure.invoiceId,
    payment_intent_id: failure.paymentIntentId,
    reason: failure.reason.slice(0, 500) || "The payment failed.",
    failed_at: failure.failedAt,
  };
  if (failure.paymentIntentId === null) {
    await db.insertInto("stripe_payment_failures").values(values).execute();
    return;
  }
  await db
    .insertInto("stripe_payment_failures")
    .values(values)
    .onConflict((oc) =>
      oc
        .column("payment_intent_id")
        .where("payment_intent_id", "is not", null)
        .doUpdateSet({ reason: values.reason, failed_at: values.failed_at }),
    )
    .execute();
}

/** A "Pay now" session made for an invoice's balance (a replayed create finds its row). */
export async function insertCheckoutSession(db: Db, session: { id: string; invoiceId: string; amountCents: number }) {
  await db
    .insertInto("stripe_checkout_sessions")
    .values({ id: session.id, invoice_id: session.invoiceId, amount_cents: session.amountCents })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/** The invoice's sessions a customer could still pay on Stripe's page (not closed, not at the bank). */
export async function listPayableCheckoutSessions(db: Db, invoiceId: string) {
  return db
    .selectFrom("stripe_checkout_sessions")
    .select(["id", "amount_cents"])
    .where("invoice_id", "=", invoiceId)
    .where("closed_at", "is", null)
    .where("processing_since", "is", null)
    .orderBy("created_at")
    .execute();
}

export async function closeCheckoutSession(db: Db, sessionId: string, at: Date) {
  await db
    .updateTable("stripe_checkout_sessions")
    .set({ closed_at: at })
    .where("id", "=", sessionId)
    .where("closed_at", "is", null)
    .execute();
}

/**
 * A completed session as Stripe has it: its PaymentIntent kept, and either still at the bank
 * (`processing`) or done (paid or failed: closed).
 */
export async function setCheckoutSessionIntent(
  db: Db,
  sessionId: string,
  paymentIntentId: string,
  processing: boolean,
  at: Date,
) {
  await db
    .updateTable("stripe_checkout_sessions")
    .set(
      processing
        ? { payment_intent_id: paymentIntentId, processing_since: at }
        : { payment_intent_id: paymentIntentId, processing_since: null, closed_at: at },
    )
    .where("id", "=", sessionId)
    .where("closed_at", "is", null)
    .execute();
}

/** The PaymentIntent of a session left the bank (succeeded or failed): the session is done. */
export async function closeCheckoutSessionsOfIntent(db: Db, paymentIntentId: string, at: Date) {
  await db
    .updateTable("stripe_checkout_sessions")
    .set({ closed_at: at, processing_since: null })
    .where("payment_intent_id", "=", paymentIntentId)
    .where("closed_at", "is", null)
    .execute();
}

/**
 * Where-clause on `invoices`: a charge of the invoice is in flight at the bank (docs/decisions/111),
 * so another must not be made. Either its latest off-session attempt was answered "processing"
 * (an attempt counted, no failure recorded for it, no next try set: the collection's own mark)
 * or a "Pay now" session's payment is processing.
 */
export function chargeInFlight(eb: ExpressionBuilder<Database, "invoices">): Expression<SqlBool> {
  return eb.or([
    eb.and([
      eb("invoices.charge_attempts", ">", 0),
      eb("invoices.next_charge_on", "is", null),
      eb.not(
        eb.exists(
          eb
            .selectFrom("invoice_charge_failures as f")
            .select("f.id")
            .whereRef("f.invoice_id", "=", "invoices.id")
            .whereRef("f.attempt", "=", "invoices.charge_attempts"),
        ),
      ),
    ]),
    eb.exists(
      eb
        .selectFrom("stripe_checkout_sessions as s")
        .select("s.id")
        .whereRef("s.invoice_id", "=", "invoices.id")
        .where("s.closed_at", "is", null)
        .where("s.processing_since", "is not", null),
    ),
  ]);
}

export async function hasChargeInFlight(db: Db, invoiceId: string): Promise<boolean> {
  const row = await db
    .selectFrom("invoices")
    .select("id")
    .where("id", "=", invoiceId)
    .where("status", "=", "open")
    .where(chargeInFlight)
    .executeTakeFirst();
  return row !== undefined;
}
