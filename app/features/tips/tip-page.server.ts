import { parseTipForm, tipPresets } from "./tip-rules";
import { giveTip, tipRefusal, type TipOutcome } from "./tips.server";
import { getSiteSettings } from "~/content/content.server";
import { cardText } from "~/features/billing/card-brands";
import { formatCents } from "~/features/billing/money";
import { getStripeCustomer } from "~/models/stripe.server";
import { findTipOfVisit, getTechnicianName } from "~/models/tip.server";
import { getVisitForCustomer } from "~/models/visit.server";
import type { Tip } from "../../../db/schema";
import { formatBusinessDate } from "~/utils/business-time";
import { getDb, type Db } from "~/utils/db.server";
import { isStripeConfigured } from "~/utils/stripe.server";

/**
 * The tip page of one of the signed-in customer's visits (docs/decisions/131): reached from the
 * completion e-mail's links, so a tip is always the visit's own customer's (anyone else's visit
 * is a 404, as on the visit page).
 */

function tipState(tip: Tip) {
  const amount = formatCents(tip.amount_cents);
  if (tip.way === "invoice") return `Thank you! Your tip of ${amount} will be on your next invoice.`;
  if (tip.paid_at) return `Thank you! Your tip of ${amount} was charged to your card.`;
  return `Your tip of ${amount} is not charged yet: we could not reach the card processor. Press “Try again”.`;
}

async function firstNameOf(db: Db, userId: string | null) {
  if (!userId) return null;
  const name = (await getTechnicianName(db, userId))?.trim();
  return name && !name.includes("@") ? name.split(/\s+/)[0] : null;
}

export async function loadTipPage(customerId: string, visitId: string, url: URL) {
  const db = await getDb();
  const visit = await getVisitForCustomer(visitId, customerId);
  if (!visit) throw new Response("Visit not found", { status: 404 });
  const settings = await getSiteSettings();
  const presets = tipPresets(settings.tips?.amounts ?? []);
  const [tip, card, technician] = await Promise.all([
    findTipOfVisit(db, visit.id),
    isStripeConfigured() ? getStripeCustomer(db, customerId) : undefined,
    firstNameOf(db, visit.assigned_to),
  ]);
  const refusal = settings.tips ? tipRefusal(visit, customerId) : { reason: "Tips are not offered right now." };
  const asked = url.searchParams.get("amount");
  return {
    visit: { serviceType: visit.service_type, dateLabel: formatBusinessDate(visit.service_date), id: visit.id },
    technician,
    presets: presets.map((cents) => ({ value: String(cents), label: formatCents(cents) })),
    chosen: asked === "other" || presets.includes(Number(asked)) ? asked : null,
    refusal: refusal?.reason ?? null,
    tip: tip ? { state: tipState(tip), retry: tip.way === "card" && !tip.paid_at } : null,
    // How it will be paid, said before the press.
    payment:
      card?.payment_method_id && card.card_brand && card.card_last4
        ? `It is charged to your ${cardText({ brand: card.card_brand, last4: card.card_last4 })} at once.`
        : card?.payment_method_id
          ? "It is charged to your card on file at once."
          : "It is added to your next invoice.",
  };
}

export type TipActionData = { error?: string; field?: "choice" | "other"; message?: string };

const MESSAGES: Record<TipOutcome["kind"], (outcome: TipOutcome) => string> = {
  charged: (o) =>
    o.kind === "charged" ? `Thank you! Your tip of ${formatCents(o.tip.amount_cents)} was charged.` : "",
  on_invoice: (o) =>
    o.kind === "on_invoice" ? `Thank you! Your tip of ${formatCents(o.tip.amount_cents)} is on your next invoice.` : "",
  already: () => "This visit already has your tip. Thank you!",
  declined: (o) => (o.kind === "declined" ? `Your card was not charged: ${o.reason}` : ""),
  pending: () => "We could not reach the card processor. Nothing more will be charged if you press “Try again”.",
  refused: (o) => (o.kind === "refused" ? o.reason : ""),
};

/** The form's press: bad input is an error to show (nothing stored); the outcome, a message. */
export async function handleTipAction(
  customerId: string,
  visitId: string,
  form: FormData,
  now: Date,
): Promise<{ status: number; data: TipActionData }> {
  const db = await getDb();
  const visit = await getVisitForCustomer(visitId, customerId);
  if (!visit) return { status: 404, data: { error: "Visit not found" } };
  const settings = await getSiteSettings();
  if (!settings.tips) return { status: 409, data: { error: "Tips are not offered right now." } };
  const existing = await findTipOfVisit(db, visit.id);
  // "Try again" of a card tip repeats its own amount; a new tip is read from the form.
  const parsed =
    existing && form.get("intent") === "retry"
      ? { cents: existing.amount_cents }
      : parseTipForm({ choice: form.get("choice"), other: form.get("other") }, tipPresets(settings.tips.amounts));
  if ("error" in parsed) return { status: 400, data: { error: parsed.error, field: parsed.field } };
  const outcome = await giveTip(db, { visit, customerId, amountCents: parsed.cents, now });
  const message = MESSAGES[outcome.kind](outcome);
  if (outcome.kind === "refused") return { status: outcome.status, data: { error: message } };
  if (outcome.kind === "declined") return { status: 402, data: { error: message } };
  return { status: outcome.kind === "pending" ? 503 : 200, data: { message } };
}
