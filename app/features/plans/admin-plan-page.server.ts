import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import {
  ADMIN_PLAN_TOASTS,
  changePlanSchema,
  pausePlanSchema,
  planIdSchema,
  startPlanSchema,
  type AdminPlanIntent,
  type CataloguePlanOption,
} from "./admin-plan-schema";
import {
  changePlan,
  pausePlan,
  PlanChangeError,
  resumePlan,
  startPlan,
  type CataloguePlanChoice,
  type PlanActor,
} from "./plan-changes.server";
import { describeWeekdays, isoWeekday } from "./plan-schedule";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { cancelPlanWithCredit, previewCancellationCredit } from "~/features/billing/cancellation-credit.server";
import { parseCancelAnswer } from "./cancel-reason";
import { addOnAmountFor, estimateMonthlyPrice, formatMonthlyExtra, formatPrice } from "~/content/pricing";
import type { PlanCard } from "~/content/types";
import { planPriceText } from "~/features/billing/plan-prices";
import { YARD_SIZE_OPTIONS } from "~/features/quotes/quote-schema";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { findLatestPlanWithVisits, type CustomerPlan } from "~/models/customer-plan.server";
import { BUSINESS_TIME_ZONE, formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";

/**
 * The Plan section of the admin's customer page (issue 25 item 5): what it shows, and its five
 * forms. Every change goes through the plan workflow (plan-changes.server.ts, decision 092) as
 * an admin: it applies from now on, not held to the customer's change notice.
 */

/** How many upcoming visits and history lines the section shows (bounded: decision 053). */
export const UPCOMING_VISITS_SHOWN = 5;
export const HISTORY_LINES_SHOWN = 20;

const PLAN_EVENT_LABELS: Record<string, string> = {
  started: "Plan started",
  changed: "Plan changed",
  paused: "Service paused",
  resumed: "Service resumed",
  cancelled: "Plan cancelled",
  visit_skipped: "Visit skipped",
  skip_undone: "Skip undone",
};

const SKIP_REASON_LABELS: Record<string, string> = {
  customer: "Skipped by the customer",
  paused: "Skipped: paused",
  payment_overdue: "Skipped: payment overdue",
  admin: "Skipped by an admin",
};

// Made once (an Intl formatter costs far more to build than to use).
const weekdayName = new Intl.DateTimeFormat("en-US", { timeZone: BUSINESS_TIME_ZONE, weekday: "long" });

/** "Nov 27, 2026" for a day ("YYYY-MM-DD", business time). */
function dayLabel(day: string) {
  const start = startOfBusinessDay(day);
  return start ? formatBusinessDate(start) : day;
}

/** The next Monday to Friday after `today`: the default start (and From) date. */
export function nextWeekday(today: string) {
  let day = addDays(today, 1);
  while (isoWeekday(day) > 5) day = addDays(day, 1);
  return day;
}

/** Subscriptions only: a one-time visit cannot be a customer plan. */
function catalogueOptions(catalogue: readonly PlanCard[]): CataloguePlanOption[] {
  return catalogue.map((plan) => ({ id: plan._id, name: plan.name, visitsPerWeek: plan.visitsPerWeek }));
}

/** The monthly price from Sanity: the catalogue plan's price plus the multi-dog add-on's tier. */
/**
 * The plan's monthly price: the one locked on it (decision 116), with a new one waiting for its
 * day; a plan not locked yet (the billing run locks it) shows the catalogue's.
 */
async function monthlyPrice(plan: CustomerPlan, catalogue: readonly PlanCard[]) {
  const card = catalogue.find((entry) => entry._id === plan.catalogue_plan_id);
  const stored = planPriceText(plan);
  if (stored.price) return { ...stored, inCatalogue: card?.price.unit === "month" };
  const none = { price: null, breakdown: null, newPrice: null, inCatalogue: false };
  if (!card) return none;
  const addOns = await getAddOns();
  const amount = estimateMonthlyPrice(card.price, plan.dog_count, addOns);
  if (amount === null) return none;
  const extras = addOns
    .map((addOn) => ({ name: addOn.name, amount: addOnAmountFor(addOn, plan.dog_count) }))
    .filter((extra) => extra.amount > 0);
  return {
    price: formatPrice({ amount, unit: "month" }),
    breakdown: extras.length
      ? [`${formatPrice(card.price)} plan`, ...extras.map((e) => `${formatMonthlyExtra(e.amount)} ${e.name}`)].join(" ")
      : null,
    newPrice: null,
    inCatalogue: true,
  };
}

/** A cancelled plan's last visit day; the workflow records today when it had none (decision 092). */
function lastVisitLabel(plan: CustomerPlan) {
  if (plan.status !== "cancelled" || !plan.last_visit_date) return null;
  if (plan.last_visit_date < plan.start_date) return "None: cancelled before its first visit";
  return dayLabel(plan.last_visit_date);
}

function statusOf(plan: CustomerPlan, today: string) {
  if (plan.status === "cancelled") return { label: "Cancelled", paused: false };
  // A pause whose last day has passed reads as active (decision 092).
  if (plan.status === "paused" && plan.paused_from && plan.paused_until && plan.paused_until >= today) {
    return { label: `Paused from ${dayLabel(plan.paused_from)} until ${dayLabel(plan.paused_until)}`, paused: true };
  }
  return { label: "Active", paused: false };
}

export type AdminPlanVisit = { id: string; at: string; label: string; status: string; statusLabel: string };
export type AdminPlanHistoryLine = {
  id: string;
  at: string;
  when: string;
  who: string;
  what: string;
  detail: string | null;
};

/** Everything the Plan section shows: the customer's latest plan, its next visits and its history. */
export async function loadAdminPlan(customerId: string, now = new Date()) {
  const today = businessToday(now);
  const [catalogue, settings, found] = await Promise.all([
    getCatalogue(),
    getSiteSettings(),
    // The plan, its next visits and its history in one round trip.
    findLatestPlanWithVisits(customerId, { from: now, visits: UPCOMING_VISITS_SHOWN, events: HISTORY_LINES_SHOWN }),
  ]);
  const options = catalogueOptions(catalogue).filter((option) => option.visitsPerWeek !== null);
  const defaults = { startDate: nextWeekday(today) };
  const longestPauseDays = settings.planRules.longestPauseDays;
  if (!found) {
    const none: { upcoming: AdminPlanVisit[]; history: AdminPlanHistoryLine[] } = { upcoming: [], history: [] };
    return { catalogue: options, defaults, longestPauseDays, plan: null, ...none };
  }

  const { plan, history: events } = found;
  // A cancelled plan has no upcoming visits to show (those left are cancelled).
  const visits = plan.status === "cancelled" ? [] : found.upcoming;
  const open = plan.status !== "cancelled";
  const [price, cancelCredit] = await Promise.all([
    monthlyPrice(plan, catalogue),
    // What "Cancel plan" would give back now (decision 115): the cancellation's own computation.
    open
      ? previewCancellationCredit(await getDb(), {
          planId: plan.id,
          customerId,
          actor: { id: "", isAdmin: true },
          now,
          rules: settings.planRules,
        })
      : null,
  ]);
  const status = statusOf(plan, today);
  return {
    catalogue: options,
    defaults,
    longestPauseDays,
    plan: {
      id: plan.id,
      open,
      cancelCredit,
      status: plan.status,
      statusLabel: status.label,
      paused: status.paused,
      name: plan.catalogue_plan_name,
      cataloguePlanId: plan.catalogue_plan_id,
      weekdays: plan.weekdays,
      days: describeWeekdays(plan.weekdays),
      dogs: plan.dog_count,
      yardSize: plan.yard_size,
      yardSizeLabel: YARD_SIZE_OPTIONS.find((option) => option.value === plan.yard_size)?.label ?? plan.yard_size,
      notes: plan.notes,
      startLabel: dayLabel(plan.start_date),
      price: price.price,
      priceBreakdown: price.breakdown,
      newPrice: price.newPrice,
      /** Its catalogue plan is gone from Sanity: it is billed at its stored price (decision 116). */
      notInCatalogue: !price.inCatalogue,
      lastVisitLabel: lastVisitLabel(plan),
    },
    upcoming: visits.map((visit): AdminPlanVisit => {
      return {
        id: visit.id,
        at: visit.service_date.toISOString(),
        label: `${weekdayName.format(visit.service_date)}, ${formatBusinessDateTime(visit.service_date)}`,
        status: visit.status,
        statusLabel:
          visit.status === "skipped"
            ? (SKIP_REASON_LABELS[visit.skip_reason ?? ""] ?? "Skipped")
            : visit.plan_left_at
              ? "Scheduled (changed by hand)"
              : "Scheduled",
      };
    }),
    history: events.map((event): AdminPlanHistoryLine => ({
      id: event.id,
      at: event.created_at.toISOString(),
      when: formatBusinessDateTime(event.created_at),
      who:
        event.actor_id === null
          ? "System"
          : event.actor_id === plan.customer_id
            ? "Customer"
            : (event.actor_name ?? event.actor_email ?? "Admin"),
      what: PLAN_EVENT_LABELS[event.kind] ?? event.kind,
      detail: event.detail,
    })),
  };
}

export type AdminPlanActionData = {
  intent: AdminPlanIntent;
  /** Conform's `submission.reply()`: the fields' messages, and the workflow's refusal as the form's. */
  result?: SubmissionResult<string[]>;
  toast: { type: "error"; message: string; description: string };
};

function refuse(intent: AdminPlanIntent, status: number, description: string, result?: SubmissionResult<string[]>) {
  return json<AdminPlanActionData>(
    { intent, result, toast: { type: "error", message: "Error", description } },
    { status, headers: { "Cache-Control": "private, no-store" } },
  );
}

type ActionContext = { customerId: string; admin: { id: string; name: string | null }; now?: Date };

/**
 * One of the Plan section's forms, told apart by `intent`. The caller has checked that the signed-
 * in user is an admin with their second step and that `customerId` is a customer. A refusal
 * answers the form again (400 bad input, 404 a plan that is not this customer's, 409 not
 * possible now) with its messages and an error toast, and nothing is stored; a change redirects
 * back to the section with its toast.
 */
export async function handleAdminPlanAction(intent: AdminPlanIntent, formData: FormData, context: ActionContext) {
  const now = context.now ?? new Date();
  const actor: PlanActor = { id: context.admin.id, isAdmin: true, name: context.admin.name };
  const catalogue = catalogueOptions(await getCatalogue());
  const choice = (id: string): CataloguePlanChoice => {
    // The schema has checked that the id is in the catalogue.
    const plan = catalogue.find((option) => option.id === id)!;
    return { _id: plan.id, name: plan.name, visitsPerWeek: plan.visitsPerWeek };
  };
  const db = await getDb();
  const customerId = context.customerId;

  switch (intent) {
    case "start-plan": {
      const submission = parseWithZod(formData, { schema: startPlanSchema(catalogue) });
      if (submission.status !== "success") return invalid(intent, submission.reply());
      const value = submission.value;
      return apply(intent, submission, context, () =>
        startPlan(db, {
          customerId,
          cataloguePlan: choice(value.cataloguePlanId),
          weekdays: value.weekdays,
          dogCount: value.dogCount,
          yardSize: value.yardSize,
          startDate: value.startDate,
          notes: value.notes || null,
          actorId: actor.id,
          actorName: actor.name,
          now,
        }),
      );
    }
    case "change-plan": {
      const submission = parseWithZod(formData, { schema: changePlanSchema(catalogue) });
      if (submission.status !== "success") return invalid(intent, submission.reply());
      const value = submission.value;
      return apply(intent, submission, context, () =>
        changePlan(db, {
          planId: value.planId,
          customerId,
          cataloguePlan: choice(value.cataloguePlanId),
          weekdays: value.weekdays,
          dogCount: value.dogCount,
          yardSize: value.yardSize,
          fromDate: value.fromDate,
          notes: value.notes || null,
          actor,
          now,
        }),
      );
    }
    case "pause-plan": {
      const submission = parseWithZod(formData, { schema: pausePlanSchema });
      if (submission.status !== "success") return invalid(intent, submission.reply());
      const { planId, from, until } = submission.value;
      return apply(intent, submission, context, () => pausePlan(db, { planId, customerId, actor, now, from, until }));
    }
    case "resume-plan":
    case "cancel-plan": {
      const submission = parseWithZod(formData, { schema: planIdSchema });
      if (submission.status !== "success") return invalid(intent, submission.reply());
      const { planId } = submission.value;
      if (intent === "resume-plan")
        return apply(intent, submission, context, () => resumePlan(db, { planId, customerId, actor, now }));
      const answer = parseCancelAnswer(formData);
      if ("error" in answer) return refuse(intent, 400, answer.error, submission.reply({ formErrors: [answer.error] }));
      return apply(intent, submission, context, () =>
        cancelPlanWithCredit(db, { planId, customerId, actor, now, ...answer }),
      );
    }
  }
}

/** A form that does not parse. A missing plan id is someone else's plan as far as anyone can tell. */
function invalid(intent: AdminPlanIntent, result: SubmissionResult<string[]>) {
  if (result.error?.planId) return refuse(intent, 404, "We could not find that plan.", result);
  return refuse(intent, 400, "Please check the form", result);
}

/** Runs the change; the workflow's refusal becomes the form's message and the toast. */
async function apply(
  intent: AdminPlanIntent,
  submission: { reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]> },
  context: ActionContext,
  change: () => Promise<unknown>,
) {
  const fields = { intent, customerId: context.customerId, adminId: context.admin.id };
  try {
    await change();
  } catch (error) {
    if (!(error instanceof PlanChangeError)) throw error;
    log.info("plan.refused", { ...fields, status: error.status });
    return refuse(intent, error.status, error.message, submission.reply({ formErrors: [error.message] }));
  }
  log.info("plan.changed", fields);
  return redirectWithSuccess(`/admin-dashboard/customers/${context.customerId}#plan`, ADMIN_PLAN_TOASTS[intent]);
}
