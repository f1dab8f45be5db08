import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import type { CustomerPlan } from "../../../db/schema";
import { pausePlan, PlanChangeError, resumePlan, skipVisit, undoSkip, type PlanActor } from "./plan-changes.server";
import { canChangeVisit, describeWeekdays, isPausedOn } from "./plan-schedule";
import { formatPlanDay, formatVisitDay, formatVisitTime, SKIP_REASON_TEXT } from "./your-plan-format";
import {
  dayPlus,
  isPlanIntent,
  pauseSchema,
  planChangeSchema,
  PLAN_MESSAGES,
  visitChangeSchema,
  type PauseLimits,
  type PlanIntent,
} from "./your-plan-schema";
import type { ActionToastMessage } from "~/components/action-toast";
import { cancelPlanWithCredit, previewCancellationCredit } from "~/features/billing/cancellation-credit.server";
import { parseCancelAnswer } from "./cancel-reason";
import { formatCents } from "~/features/billing/money";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { describePrice, estimateMonthlyPrice, formatPrice } from "~/content/pricing";
import type { PlanRules } from "~/content/types";
import { lockedPrice, planPriceText, totalCents } from "~/features/billing/plan-prices";
import { businessToday } from "~/features/visits/visit-dates";
import { findLatestPlanWithVisits, type ListedPlanVisit } from "~/models/customer-plan.server";
import { getDb } from "~/utils/db.server";
import { telHref } from "~/utils/tel";
import { redirectWithSuccess } from "~/utils/toast.server";

/**
 * "Your Plan" (/customer-dashboard/plan) and the dashboard's "Your Plan" card: what the signed-in
 * customer's plan is and what comes next, and their changes through the plan workflow
 * (plan-changes.server.ts, decision 092), always as the customer (held to the change notice),
 * always on their own plan: the workflow answers 404 for anyone else's plan or visit.
 */

export const YOUR_PLAN_PATH = "/customer-dashboard/plan";
/** "Upcoming visits": the next this many (issue 25). */
export const UPCOMING_SHOWN = 8;
/** The latest first day of a pause: the workflow's limit for a date (a year from today). */
const LATEST_FROM_DAYS = 365;
const MAX_FORM_BYTES = 16 * 1024;

export type YourPlanUser = { id: string; fullName: string | null };

function pauseLimits(today: string, rules: PlanRules): PauseLimits & { latestUntil: string } {
  const latestFrom = dayPlus(today, LATEST_FROM_DAYS);
  return {
    today,
    latestFrom,
    latestUntil: dayPlus(latestFrom, rules.longestPauseDays - 1),
    longestPauseDays: rules.longestPauseDays,
  };
}

/** Active, paused (while the pause lasts: one whose end has passed reads as active), or cancelled. */
function planStatus(plan: CustomerPlan, today: string) {
  if (plan.status === "cancelled") {
    return { kind: "cancelled" as const, lastVisit: plan.last_visit_date ? formatPlanDay(plan.last_visit_date) : null };
  }
  if (plan.status === "paused" && plan.paused_from && plan.paused_until && plan.paused_until >= today) {
    return { kind: "paused" as const, from: formatPlanDay(plan.paused_from), until: formatPlanDay(plan.paused_until) };
  }
  return { kind: "active" as const };
}

/** The price locked on the plan (decision 116); one not locked yet (the billing run locks it) shows the catalogue's. */
async function monthlyPriceOf(plan: CustomerPlan) {
  const locked = lockedPrice(plan);
  if (locked) {
    const price = { amount: totalCents(locked) / 100, unit: "month" as const };
    return { shown: formatPrice(price), spoken: describePrice(price) };
  }
  const [catalogue, addOns] = await Promise.all([getCatalogue(), getAddOns()]);
  const card = catalogue.find((entry) => entry._id === plan.catalogue_plan_id);
  const amount = card ? estimateMonthlyPrice(card.price, plan.dog_count, addOns) : null;
  if (amount === null) return null;
  const price = { amount, unit: "month" as const };
  return { shown: formatPrice(price), spoken: describePrice(price) };
}

type PlanVisitRow = ListedPlanVisit;

/** One upcoming visit, and what its customer may still do about it. */
function visitView(visit: PlanVisitRow, { now, rules, plan }: { now: Date; rules: PlanRules; plan: CustomerPlan }) {
  const open = plan.status !== "cancelled";
  const changeable = canChangeVisit(visit.service_date, now, rules.changeNoticeHours);
  // A skip made before a pause over its day comes back only after the pause (decision 092).
  const inPause = visit.status === "skipped" && isPausedOn(plan, businessToday(visit.service_date));
  return {
    id: visit.id,
    startsAt: visit.service_date.toISOString(),
    day: formatVisitDay(visit.service_date),
    time: formatVisitTime(visit.service_date),
    status: visit.status,
    skipReason: visit.status === "skipped" && visit.skip_reason ? SKIP_REASON_TEXT[visit.skip_reason] : null,
    canSkip: open && changeable && visit.status === "scheduled",
    canUndo: open && changeable && !inPause && visit.status === "skipped" && visit.skip_reason === "customer",
    /** Within the change notice: the customer calls instead. */
    locked: !changeable && (visit.status === "scheduled" || visit.skip_reason === "customer"),
  };
}
type UpcomingVisitView = ReturnType<typeof visitView>;

/** Everything "Your Plan" shows; `now` fixes the clock (tests). */
export async function loadYourPlan(user: YourPlanUser, url: URL, now: Date) {
  const [found, settings] = await Promise.all([
    // The plan and its next visits in one round trip.
    findLatestPlanWithVisits(user.id, { from: now, visits: UPCOMING_SHOWN }),
    getSiteSettings(),
  ]);
  const rules = settings.planRules;
  const today = businessToday(now);
  const page = {
    contact: { phone: settings.phone, phoneHref: telHref(settings.phone) },
    notice: { hours: rules.changeNoticeHours, longestPauseDays: rules.longestPauseDays },
    pause: pauseLimits(today, rules),
  };
  if (!found)
    return { ...page, plan: null, visits: [] as UpcomingVisitView[], cancelCredit: null, confirmCancel: false };

  const { plan, upcoming: visits } = found;
  const open = plan.status !== "cancelled";
  const [monthlyPrice, cancelCredit] = await Promise.all([
    monthlyPriceOf(plan),
    // What "Cancel plan" gives back, by the computation the cancellation itself makes (decision 115).
    open
      ? previewCancellationCredit(await getDb(), {
          planId: plan.id,
          customerId: user.id,
          actor: { id: user.id, isAdmin: false },
          now,
          rules,
        })
      : null,
  ]);
  const status = planStatus(plan, today);
  return {
    ...page,
    plan: {
      id: plan.id,
      name: plan.catalogue_plan_name,
      serviceDays: describeWeekdays(plan.weekdays),
      dogs: plan.dog_count,
      monthlyPrice,
      /** "New price from April 1, 2027: $114/month" while a new price waits for its day. */
      newPrice: planPriceText(plan).newPrice,
      startsOn: plan.start_date > today ? formatPlanDay(plan.start_date) : null,
      status,
      /** The pause form shows while the plan is active (a pause in force offers "Resume now"). */
      canPause: open && status.kind === "active",
      canResume: status.kind === "paused",
      canCancel: open,
    },
    visits: visits.map((visit) => visitView(visit, { now, rules, plan })),
    cancelCredit,
    confirmCancel: open && url.searchParams.get("cancel") === "confirm",
  };
}

/** The dashboard's "Your Plan" card: the plan's name, its state and the next visit that will happen. */
export async function loadYourPlanCard(customerId: string, now = new Date()) {
  const found = await findLatestPlanWithVisits(customerId, { from: now, visits: UPCOMING_SHOWN });
  if (!found) return null;
  const { plan, upcoming: visits } = found;
  const next = visits.find((visit) => visit.status === "scheduled");
  const status = planStatus(plan, businessToday(now));
  return {
    name: plan.catalogue_plan_name,
    status:
      status.kind === "cancelled"
        ? "Cancelled"
        : status.kind === "paused"
          ? `Paused from ${status.from} until ${status.until}`
          : "Active",
    nextVisit: next
      ? {
          startsAt: next.service_date.toISOString(),
          day: formatVisitDay(next.service_date),
          time: formatVisitTime(next.service_date),
        }
      : null,
  };
}

/** A refused form: the page again with a toast (and the form's messages), never a redirect. */
export type YourPlanActionData = {
  toast: ActionToastMessage;
  intent: PlanIntent | null;
  /** The visit a refused skip or undo was about: its row repeats the message. */
  visitId?: string;
  /** Conform's `submission.reply()` of the pause form. */
  result?: SubmissionResult<string[]>;
};

const refuse = (status: number, title: string, description: string, extra: Omit<YourPlanActionData, "toast">) =>
  json<YourPlanActionData>({ toast: { type: "error", message: title, description }, ...extra }, { status });

const REFUSAL_TITLES: Record<PlanIntent, string> = {
  skip: "Visit not skipped",
  "undo-skip": "Skip not undone",
  pause: "Service not paused",
  resume: "Service not resumed",
  cancel: "Plan not cancelled",
};

/** The field of the pause form a workflow refusal is about (its words start with the field's). */
function pauseField(message: string): "from" | "until" | null {
  if (message.startsWith("From")) return "from";
  if (message.startsWith("Until") || message.startsWith("A pause")) return "until";
  return null;
}

/** The page's forms, told apart by `intent`; `now` fixes the clock (tests). */
export async function handleYourPlanAction(request: Request, user: YourPlanUser, now: Date) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return refuse(413, "Error", "That form is too large.", { intent: null });
  }
  const formData = await request.formData().catch(() => null);
  const intent = formData?.get("intent");
  if (!formData || !isPlanIntent(intent)) return refuse(400, "Error", PLAN_MESSAGES.unknownIntent, { intent: null });
  const actor: PlanActor = { id: user.id, isAdmin: false, name: user.fullName };
  const [db, settings] = await Promise.all([getDb(), getSiteSettings()]);
  const rules = settings.planRules;
  const title = REFUSAL_TITLES[intent];

  if (intent === "skip" || intent === "undo-skip") {
    const submission = parseWithZod(formData, { schema: visitChangeSchema });
    if (submission.status !== "success") return refuse(400, title, PLAN_MESSAGES.visitRequired, { intent });
    const { visitId } = submission.value;
    try {
      await (intent === "skip" ? skipVisit : undoSkip)(db, { visitId, customerId: user.id, actor, now });
    } catch (error) {
      if (error instanceof PlanChangeError) return refuse(error.status, title, error.message, { intent, visitId });
      throw error;
    }
    return redirectWithSuccess(
      YOUR_PLAN_PATH,
      intent === "skip"
        ? {
            message: "Visit skipped",
            description: `You can undo it up to ${rules.changeNoticeHours} hours before the visit.`,
          }
        : { message: "Skip undone", description: "The visit is back on your schedule." },
    );
  }

  if (intent === "pause") {
    const submission = parseWithZod(formData, { schema: pauseSchema(pauseLimits(businessToday(now), rules)) });
    if (submission.status !== "success") {
      return refuse(400, title, "Please check the dates.", { intent, result: submission.reply() });
    }
    const { planId, from, until } = submission.value;
    try {
      await pausePlan(db, { planId, customerId: user.id, actor, now, from, until });
    } catch (error) {
      if (!(error instanceof PlanChangeError)) throw error;
      const field = pauseField(error.message);
      return refuse(error.status, title, error.message, {
        intent,
        result: submission.reply(
          field ? { fieldErrors: { [field]: [error.message] } } : { formErrors: [error.message] },
        ),
      });
    }
    return redirectWithSuccess(YOUR_PLAN_PATH, {
      message: "Service paused",
      description: `From ${formatPlanDay(from)} until ${formatPlanDay(until)}: visits in those days are skipped.`,
    });
  }

  const submission = parseWithZod(formData, { schema: planChangeSchema });
  if (submission.status !== "success") return refuse(400, title, PLAN_MESSAGES.planRequired, { intent });
  const input = { planId: submission.value.planId, customerId: user.id, actor, now };
  try {
    if (intent === "resume") {
      await resumePlan(db, input);
      return redirectWithSuccess(YOUR_PLAN_PATH, {
        message: "Service resumed",
        description: "Your visits are scheduled again.",
      });
    }
    const answer = parseCancelAnswer(formData);
    if ("error" in answer) return refuse(400, title, answer.error, { intent });
    const { plan, creditCents } = await cancelPlanWithCredit(db, { ...input, ...answer });
    const lastDay = plan.last_visit_date ? `Your last visit day is ${formatPlanDay(plan.last_visit_date)}.` : "";
    const credit = creditCents > 0 ? `${formatCents(creditCents)} back as credit on file.` : "";
    return redirectWithSuccess(YOUR_PLAN_PATH, {
      message: "Plan cancelled",
      description: [lastDay, credit].filter(Boolean).join(" "),
    });
  } catch (error) {
    if (error instanceof PlanChangeError) return refuse(error.status, title, error.message, { intent });
    throw error;
  }
}
