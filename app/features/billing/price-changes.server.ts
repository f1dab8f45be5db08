import { currentPeriod } from "./billing-rules";
import { formatCents } from "./money";
import { mail, type MailContext } from "./payment-recovery-emails.server";
import {
  cataloguePrice,
  lockedPrice,
  pendingPrice,
  priceChangeDay,
  priceDayText,
  samePrice,
  totalCents,
  type LockedPrice,
} from "./plan-prices";
import { getCatalogue } from "~/content/content.server";
import type { AddOn, PlanCard } from "~/content/types";
import { enqueueEmails, type EmailToEnqueue } from "~/features/outbox/outbox.server";
import { businessToday } from "~/features/visits/visit-dates";
import { listInvoiceRecipients } from "~/models/invoice-run.server";
import {
  listPlanPricesBatch,
  listPlansOutsideCatalogue,
  lockPlanPrice,
  setPlanPrice,
  type PlanPricePatch,
  type PlanPriceRow,
} from "~/models/plan-price.server";
import type { Db } from "~/utils/db.server";
import { byId, keysetBatches } from "~/utils/keyset-batches.server";

/**
 * The job step that brings the catalogue's prices to the plans with the Terms' notice
 * (docs/decisions/116). A plain function, called from one place (the billing run, before it
 * bills), so that it can move to the job queue as it is. For every plan that is not cancelled:
 *  - a plan with no locked price (made before migration 0029, or outside the app) is locked at
 *    the catalogue's price of today: the backfill, done as the billing run reads the catalogue;
 *  - a new price whose day has come (its month is the one being billed) becomes the plan's price;
 *  - a catalogue price unlike the plan's becomes its new price from the first of a month at least
 *    the notice away, and the customer is e-mailed once (a dedupe key of the plan, the day and
 *    the amount); a price put back before its day (a typo mended) drops the new price;
 *  - a plan whose catalogue plan is gone keeps its price: it is billed at it, and the admin's
 *    Billing tab lists it.
 * Plans are read in keyset batches outside any transaction; each plan to change is locked and
 * read again in a short transaction per batch, with the e-mails queued in it.
 */

export type CataloguePriceOptions = {
  now: Date;
  catalogue: readonly PlanCard[];
  addOns: readonly AddOn[];
  /** The rules it needs: the month being billed, and the Terms' notice (Site settings > Billing). */
  rules: { billingDay: number; priceChangeNoticeDays: number };
  mailContext: MailContext;
  batchSize?: number;
  signal?: AbortSignal;
};

export type CataloguePriceResult = { locked: number; applied: number; announced: number; withdrawn: number };

type Change = { kind: keyof CataloguePriceResult; patch: PlanPricePatch; announce?: Announcement };
type Announcement = { from: string; before: LockedPrice; after: LockedPrice };

export async function applyCataloguePrices(db: Db, options: CataloguePriceOptions): Promise<CataloguePriceResult> {
  const result: CataloguePriceResult = { locked: 0, applied: 0, announced: 0, withdrawn: 0 };
  const today = businessToday(options.now);
  const period = currentPeriod(today, options.rules.billingDay);
  const cards = new Map(options.catalogue.map((card) => [card._id, card]));
  const decide = (plan: PlanPriceRow) =>
    decidePrice(plan, cataloguePrice(cards.get(plan.catalogue_plan_id), plan.dog_count, options.addOns), {
      today,
      period,
      noticeDays: options.rules.priceChangeNoticeDays,
    });
  const batchSize = options.batchSize ?? 1000;
  const batches = keysetBatches((after: string | null) => listPlanPricesBatch(db, after, batchSize), {
    batchSize,
    keyOf: byId,
    signal: options.signal,
  });
  for await (const plans of batches) {
    const toChange = plans.filter((plan) => decide(plan) !== null);
    if (toChange.length === 0) continue;
    await db.transaction().execute(async (trx) => {
      const announced: { plan: PlanPriceRow; announce: Announcement }[] = [];
      for (const listed of toChange) {
        // Read again under the plan's lock: a plan change meanwhile stored a price of its own.
        const plan = await lockPlanPrice(trx, listed.id);
        const change = plan ? decide(plan) : null;
        if (!plan || !change) continue;
        await setPlanPrice(trx, plan.id, change.patch, options.now);
        result[change.kind] += 1;
        if (change.announce) announced.push({ plan, announce: change.announce });
      }
      await queuePriceChangeEmails(trx, announced, options);
    });
  }
  return result;
}

/** What to write of one plan's price, given the catalogue's price of today; null: nothing. */
export function decidePrice(
  plan: PlanPriceRow,
  catalogue: LockedPrice | null,
  at: { today: string; period: string; noticeDays: number },
): Change | null {
  const locked = lockedPrice(plan);
  if (!locked) {
    if (!catalogue) return null;
    return { kind: "locked", patch: { price_cents: catalogue.priceCents, add_on_cents: catalogue.addOnCents } };
  }
  const pending = pendingPrice(plan);
  if (pending && pending.from <= at.period) {
    // Its month is being billed: the new price is the plan's price from now on.
    return {
      kind: "applied",
      patch: {
        price_cents: pending.priceCents,
        add_on_cents: pending.addOnCents,
        pending_price_cents: null,
        pending_add_on_cents: null,
        pending_price_from: null,
      },
    };
  }
  if (!catalogue) return null;
  const next = pending ? { priceCents: pending.priceCents, addOnCents: pending.addOnCents } : locked;
  if (samePrice(catalogue, next)) return null;
  if (samePrice(catalogue, locked)) {
    return {
      kind: "withdrawn",
      patch: { pending_price_cents: null, pending_add_on_cents: null, pending_price_from: null },
    };
  }
  const from = priceChangeDay(at.today, at.noticeDays);
  return {
    kind: "announced",
    patch: {
      pending_price_cents: catalogue.priceCents,
      pending_add_on_cents: catalogue.addOnCents,
      pending_price_from: from,
    },
    announce: { from, before: locked, after: catalogue },
  };
}

export function priceChangeEmail(
  context: MailContext,
  change: { planName: string; from: string; before: LockedPrice; after: LockedPrice; noticeDays: number },
) {
  const day = priceDayText(change.from);
  const after = formatCents(totalCents(change.after));
  return mail(context, {
    kind: "price_change",
    subject: `New price for your ${change.planName} from ${day}`,
    paragraphs: [
      `From ${day}, your ${change.planName} costs ${after} a month (now ${formatCents(totalCents(change.before))}).`,
      `Your invoices for the months before stay at the price you have now. We give at least ${change.noticeDays} days' notice of a new price; you can change or cancel your plan at any time.`,
    ],
    linkText: "See your plan",
    path: "/customer-dashboard/plan",
  });
}

export const priceChangeKey = (planId: string, from: string, cents: number) =>
  `price-change:${planId}:${from}:${cents}`;

async function queuePriceChangeEmails(
  trx: Db,
  announced: readonly { plan: PlanPriceRow; announce: Announcement }[],
  options: CataloguePriceOptions,
) {
  if (announced.length === 0) return;
  const recipients = new Map(
    (
      await listInvoiceRecipients(
        trx,
        announced.map(({ plan }) => plan.customer_id),
      )
    ).map((row) => [row.id, row.email]),
  );
  const emails: Omit<EmailToEnqueue, "attachments" | "expiresAt">[] = announced.flatMap(({ plan, announce }) => {
    const to = recipients.get(plan.customer_id);
    if (!to) return [];
    const message = priceChangeEmail(options.mailContext, {
      planName: plan.catalogue_plan_name,
      ...announce,
      noticeDays: options.rules.priceChangeNoticeDays,
    });
    return [
      {
        ...message,
        to,
        dedupeKey: priceChangeKey(plan.id, announce.from, totalCents(announce.after)),
        relatedId: plan.id,
      },
    ];
  });
  await enqueueEmails(trx, emails);
}

const OUTSIDE_CATALOGUE_SHOWN = 20;

/**
 * The admin's warning on the Billing tab: plans whose catalogue plan is gone from Sanity (or no
 * longer billed monthly). They are still billed at their stored price; the owner decides whether
 * to move them to a plan of the catalogue. The first few, and how many in all.
 */
export async function loadPlansOutsideCatalogue(db: Db, catalogue?: readonly PlanCard[]) {
  const cards = catalogue ?? (await getCatalogue());
  const monthly = cards.filter((card) => card.price.unit === "month").map((card) => card._id);
  const { rows, count } = await listPlansOutsideCatalogue(db, monthly, OUTSIDE_CATALOGUE_SHOWN);
  return {
    count,
    plans: rows.map((row) => {
      const price = lockedPrice({
        price_cents: row.price_cents,
        add_on_cents: row.add_on_cents,
        pending_price_cents: null,
        pending_add_on_cents: null,
        pending_price_from: null,
      });
      return {
        id: row.id,
        customerId: row.customer_id,
        customer: row.full_name || row.email,
        plan: row.catalogue_plan_name,
        price: price ? `${formatCents(totalCents(price))}/month` : null,
      };
    }),
  };
}
