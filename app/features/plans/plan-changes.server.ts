import type { CancelReason, CustomerPlan, PlanEventKind, SkipReason, YardSize } from "../../../db/schema";
import { YARD_SIZES } from "../../../db/enums";
import { planChangeEmails, type PlanChangeNotice } from "./plan-emails.server";
import {
  canChangeVisit,
  changeNoticeMessage,
  describeWeekdays,
  isHeldForPaymentOn,
  isPausedOn,
  PAUSED_VISIT_MESSAGE,
  planVisitType,
  plannedVisits,
  plannedVisitState,
  scheduleRules,
} from "./plan-schedule";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { currentPeriod } from "~/features/billing/billing-rules";
import { cataloguePrice, priceForMonth, totalCents, type LockedPrice } from "~/features/billing/plan-prices";
import { cumulativeAdjustments, monthsTouched, type ProrationRule } from "~/features/billing/prorations";
import type { PlanRules } from "~/content/types";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import {
  findOpenPlanForCustomer,
  insertPlan,
  insertPlanEvent,
  lockPlan,
  updatePlan,
} from "~/models/customer-plan.server";
import {
  deletePlanVisitWithoutMedia,
  findCustomerVisitPlanId,
  insertPlanVisits,
  lastPlanVisitBefore,
  lockCustomerVisit,
  lockFollowingVisitsFrom,
  setPlanVisit,
  type PlanVisitRow,
} from "~/models/plan-visit.server";
import {
  insertPlanAdjustments,
  insertPlanChange,
  listBilledMonths,
  listPlanChangeHistory,
} from "~/models/plan-adjustment.server";
import { recordVisitEvent } from "~/models/visit.server";
import { formatBusinessDate } from "~/utils/business-time";
import type { Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";

/**
 * Every change of a customer plan (docs/decisions/090, 092): start, change, pause, resume, cancel,
 * and a customer's skip of one visit. Each runs in one transaction that locks the plan's row,
 * writes the plan, brings its future visits in line (`syncPlanVisits`), writes a history line
 * and queues the e-mails to the customer and to the owner: all of it commits, or none.
 *
 * A customer acts alone within the owner's rules (Site settings): nothing that starts within the
 * change notice moves. An admin's change applies from now on.
 */

/** A refusal the person can act on; `status` is the HTTP answer (404 for someone else's plan). */
export class PlanChangeError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
    this.name = "PlanChangeError";
  }
}

/** Who changes the plan. A customer is held to the change notice; an admin is not. */
export type PlanActor = { id: string; isAdmin: boolean; name?: string | null };

export type CataloguePlanChoice = { _id: string; name: string; visitsPerWeek: number | null };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DOGS = 20;
const LATEST_START_DAYS = 365;

type Context = { now: Date; rules?: PlanRules };

async function rulesAndContext(context: Context) {
  const settings = await getSiteSettings();
  const rules = context.rules ?? settings.planRules;
  return {
    rules,
    email: {
      businessName: settings.businessName,
      phone: settings.phone,
      ownerEmail: settings.email,
      siteUrl: getEnv().SITE_URL,
    },
  };
}

/** The instant before which nothing moves: the change notice for a customer, now for an admin. */
function lockedUntil(actor: PlanActor, rules: PlanRules, now: Date) {
  return actor.isAdmin ? now : new Date(now.getTime() + rules.changeNoticeHours * 3_600_000);
}

/**
 * The price a plan starts or changes at, locked on it (decision 116): the catalogue's of today for
 * this catalogue plan and dogs. Null (nothing locked, the billing run locks it) when the catalogue
 * plan has no monthly price.
 */
async function priceToLock(cataloguePlanId: string, dogCount: number): Promise<LockedPrice | null> {
  const [catalogue, addOns] = await Promise.all([getCatalogue(), getAddOns()]);
  return cataloguePrice(
    catalogue.find((card) => card._id === cataloguePlanId),
    dogCount,
    addOns,
  );
}

const priceColumns = (price: LockedPrice | null) => ({
  price_cents: price?.priceCents ?? null,
  add_on_cents: price?.addOnCents ?? null,
  pending_price_cents: null,
  pending_add_on_cents: null,
  pending_price_from: null,
});

function isRealDay(day: string) {
  return DAY.test(day) && startOfBusinessDay(day) !== null;
}

function checkedWeekdays(weekdays: readonly number[], plan: CataloguePlanChoice): number[] {
  if (plan.visitsPerWeek === null) {
    throw new PlanChangeError(`${plan.name} is a one-time visit: pick a subscription plan.`);
  }
  const days = [...new Set(weekdays)].sort((a, b) => a - b);
  if (days.length !== weekdays.length || days.some((day) => !Number.isInteger(day) || day < 1 || day > 5)) {
    throw new PlanChangeError("Service days are Monday to Friday, each at most once.");
  }
  if (days.length !== plan.visitsPerWeek) {
    const count = plan.visitsPerWeek === 1 ? "1 service day" : `${plan.visitsPerWeek} service days`;
    throw new PlanChangeError(
      `${plan.name} has ${plan.visitsPerWeek} visit${plan.visitsPerWeek === 1 ? "" : "s"} a week: pick ${count}.`,
    );
  }
  return days;
}

function checkedDogsAndYard(dogCount: number, yardSize: string): YardSize {
  if (!Number.isInteger(dogCount) || dogCount < 1 || dogCount > MAX_DOGS) {
    throw new PlanChangeError(`Dogs: a whole number from 1 to ${MAX_DOGS}.`);
  }
  if (!(YARD_SIZES as readonly string[]).includes(yardSize)) throw new PlanChangeError("Pick a yard size.");
  return yardSize as YardSize;
}

function checkedDayFrom(day: string, today: string, what: string): string {
  if (!isRealDay(day)) throw new PlanChangeError(`${what}: enter a date.`);
  if (day < today) throw new PlanChangeError(`${what} cannot be in the past.`);
  if (day > addDays(today, LATEST_START_DAYS)) throw new PlanChangeError(`${what} must be within a year from today.`);
  return day;
}

/**
 * Brings the plan's future visits in line with the plan as it now is, from `from` (a day) on, but
 * never one that starts before `notBefore`: missing slots are made (paused ones as skipped); a
 * scheduled visit whose slot the plan no longer has is removed (cancelled once the plan is, or when
 * it holds media); one whose day or type changed is moved; one in a pause is skipped ("Paused by
 * customer"), and back to scheduled once the pause no longer covers it. Completed, missed and
 * cancelled visits, visits the customer skipped, and visits an admin changed by hand
 * (`plan_left_at`) are never touched. Returns how many visits it made, changed and removed.
 */
export async function syncPlanVisits(
  db: Db,
  plan: CustomerPlan,
  rules: PlanRules,
  options: { now: Date; from?: string; notBefore?: Date; actorId?: string | null },
) {
  const today = businessToday(options.now);
  const from = options.from && options.from > today ? options.from : today;
  const notBefore = new Date(
    Math.max((options.notBefore ?? options.now).getTime(), startOfBusinessDay(from)!.getTime()),
  );
  const horizonEnd = addDays(today, rules.horizonDays);
  const planned = new Map(
    plannedVisits(plan, scheduleRules(rules), from, horizonEnd)
      .filter((visit) => visit.startsAt >= notBefore)
      .map((visit) => [visit.slot, visit]),
  );
  const serviceType = planVisitType(plan.visits_per_week);
  let changed = 0;
  let removed = 0;
  for (const visit of await lockFollowingVisitsFrom(db, plan.id, notBefore)) {
    // A slot before the current days apply ("Change plan" from a later date) keeps its day and
    // type: only a pause skips it, and a cancellation ends it.
    const earlier = plan.schedule_from !== null && visit.plan_slot !== null && visit.plan_slot < plan.schedule_from;
    const wanted = earlier ? keptAsItIs(plan, visit) : visit.plan_slot ? planned.get(visit.plan_slot) : undefined;
    if (visit.plan_slot) planned.delete(visit.plan_slot);
    // A skip of the customer's own or an admin's is theirs; a pause's or an overdue payment's
    // follows the plan (decision 104).
    if (visit.status === "skipped" && visit.skip_reason !== "paused" && visit.skip_reason !== "payment_overdue") {
      continue;
    }
    if (!wanted) {
      if (plan.status !== "cancelled" && (await deletePlanVisitWithoutMedia(db, visit.id))) {
        removed += 1;
        continue;
      }
      await setPlanVisit(db, visit.id, { status: "cancelled", skip_reason: null });
      await recordVisitEvent(db, {
        visitId: visit.id,
        actorId: options.actorId ?? null,
        kind: "status",
        from: visit.status,
        to: "cancelled",
        detail: plan.status === "cancelled" ? "Plan cancelled" : "No longer on the plan's days",
      });
      removed += 1;
      continue;
    }
    const { status, skip_reason } = plannedVisitState(wanted);
    const moved = visit.service_date.getTime() !== wanted.startsAt.getTime();
    const type = earlier ? visit.service_type : serviceType;
    const sameState = status === visit.status && skip_reason === visit.skip_reason;
    if (sameState && !moved && visit.service_type === type) continue;
    await setPlanVisit(db, visit.id, { status, skip_reason, service_date: wanted.startsAt, service_type: type });
    if (!sameState) {
      await recordVisitEvent(db, {
        visitId: visit.id,
        actorId: options.actorId ?? null,
        kind: "status",
        from: visit.status,
        to: status,
        detail: stateChangeDetail(visit.skip_reason, skip_reason),
      });
    }
    if (moved) {
      await recordVisitEvent(db, {
        visitId: visit.id,
        actorId: options.actorId ?? null,
        kind: "rescheduled",
        detail: `From ${formatBusinessDate(visit.service_date)} to ${formatBusinessDate(wanted.startsAt)}: the plan changed`,
      });
    }
    changed += 1;
  }
  const rows: PlanVisitRow[] = [...planned.values()].map((visit) => ({
    customer_id: plan.customer_id,
    plan_id: plan.id,
    plan_slot: visit.slot,
    service_type: serviceType,
    service_date: visit.startsAt,
    ...plannedVisitState(visit),
  }));
  const made = await insertPlanVisits(db, rows);
  return { made, changed, removed };
}

/** A visit made for the plan's earlier days: wanted as it is, unless the plan ended before it. */
function keptAsItIs(plan: CustomerPlan, visit: { plan_slot: string | null; service_date: Date }) {
  const day = businessToday(visit.service_date);
  if (plan.status === "cancelled" && plan.last_visit_date !== null && day > plan.last_visit_date) return undefined;
  const paused =
    plan.status === "paused" &&
    plan.paused_from !== null &&
    plan.paused_until !== null &&
    day >= plan.paused_from &&
    day <= plan.paused_until;
  return { slot: visit.plan_slot!, day, startsAt: visit.service_date, paused, overdue: isHeldForPaymentOn(plan, day) };
}

/** The history line of a following visit skipped or restored by the plan's pause or payment hold. */
function stateChangeDetail(from: SkipReason | null, to: SkipReason | null) {
  if (to === "payment_overdue") return "Payment overdue";
  if (to === "paused") return "Paused by customer";
  return from === "payment_overdue" ? "Payment received" : "Pause ended";
}

async function customerOf(db: Db, customerId: string) {
  const row = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.email", "profiles.full_name"])
    .where("users.id", "=", customerId)
    .executeTakeFirst();
  if (!row) throw new PlanChangeError("This customer does not exist.", 404);
  return { email: row.email, name: row.full_name };
}

async function record(
  db: Db,
  plan: CustomerPlan,
  actor: PlanActor,
  change: { kind: PlanEventKind; title: string; summary: string; detail: string },
  email: Awaited<ReturnType<typeof rulesAndContext>>["email"] | null,
) {
  await insertPlanEvent(db, { planId: plan.id, actorId: actor.id, kind: change.kind, detail: change.detail });
  // null: the caller sends its own e-mails about this change (a sign-up's welcome, decision 129).
  if (!email) return;
  const notice: PlanChangeNotice = {
    title: change.title,
    summary: change.summary,
    customer: await customerOf(db, plan.customer_id),
    byCustomer: !actor.isAdmin,
    actorName: actor.name ?? null,
    planName: plan.catalogue_plan_name,
  };
  for (const message of planChangeEmails(notice, email)) {
    await enqueueEmail(db, { ...message, relatedId: plan.id });
  }
}

/** The plan of this customer, locked; 404 when the id is not theirs (or not a plan at all). */
async function lockCustomersPlan(db: Db, planId: string, customerId: string) {
  const plan = await lockPlan(db, planId);
  if (!plan || plan.customer_id !== customerId) throw new PlanChangeError("We could not find that plan.", 404);
  return plan;
}

function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";
}

export type StartPlanInput = {
  customerId: string;
  cataloguePlan: CataloguePlanChoice;
  weekdays: readonly number[];
  dogCount: number;
  yardSize: string;
  startDate: string;
  notes: string | null;
  actorId: string;
  now: Date;
  rules?: PlanRules;
  actorName?: string | null;
  /** false: no "Plan started" e-mails (the caller queues its own, as /start's welcome does). */
  notify?: boolean;
};

/**
 * An admin starts a customer's plan; its first visits are made at once. Given a transaction (a
 * quote request becoming a customer, decision 096) it runs inside it, so a refusal also undoes
 * what the caller wrote before; given the database it opens its own.
 */
export async function startPlan(db: Db, input: StartPlanInput): Promise<CustomerPlan> {
  const { rules, email } = await rulesAndContext(input);
  const weekdays = checkedWeekdays(input.weekdays, input.cataloguePlan);
  const yardSize = checkedDogsAndYard(input.dogCount, input.yardSize);
  const startDate = checkedDayFrom(input.startDate, businessToday(input.now), "Start date");
  const notes = input.notes?.trim().slice(0, 1000) || null;
  const actor: PlanActor = { id: input.actorId, isAdmin: true, name: input.actorName };
  const price = await priceToLock(input.cataloguePlan._id, input.dogCount);
  const write = async (trx: Db) => {
    await customerOf(trx, input.customerId);
    if (await findOpenPlanForCustomer(input.customerId, trx)) {
      throw new PlanChangeError("This customer already has a plan: change it instead.", 409);
    }
    let plan: CustomerPlan;
    try {
      plan = await insertPlan(trx, {
        customer_id: input.customerId,
        catalogue_plan_id: input.cataloguePlan._id,
        catalogue_plan_name: input.cataloguePlan.name,
        visits_per_week: weekdays.length,
        weekdays,
        dog_count: input.dogCount,
        yard_size: yardSize,
        start_date: startDate,
        notes,
        created_by: input.actorId,
        ...priceColumns(price),
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new PlanChangeError("This customer already has a plan: change it instead.", 409);
      throw error;
    }
    await syncPlanVisits(trx, plan, rules, { now: input.now, actorId: input.actorId });
    const days = describeWeekdays(weekdays);
    await record(
      trx,
      plan,
      actor,
      {
        kind: "started",
        title: "Plan started",
        summary: `Your ${plan.catalogue_plan_name} starts on ${formatDay(startDate)}, every ${days}.`,
        detail: `${plan.catalogue_plan_name}, ${days}, ${input.dogCount} dog${input.dogCount === 1 ? "" : "s"}, from ${formatDay(startDate)}`,
      },
      input.notify === false ? null : email,
    );
    return plan;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

export type ChangePlanInput = {
  planId: string;
  customerId: string;
  cataloguePlan: CataloguePlanChoice;
  weekdays: readonly number[];
  dogCount: number;
  yardSize: string;
  /** The first day the change applies to; visits before it stay as they are. */
  fromDate: string;
  notes: string | null;
  actor: PlanActor;
  now: Date;
  rules?: PlanRules;
  /** The owner's billing day (Site settings > Billing); by default Sanity's. */
  billingDay?: number;
};

/** An admin changes the plan (catalogue plan, days, dogs, yard) from a date on. */
export async function changePlan(db: Db, input: ChangePlanInput): Promise<CustomerPlan> {
  const { rules, email } = await rulesAndContext(input);
  const weekdays = checkedWeekdays(input.weekdays, input.cataloguePlan);
  const yardSize = checkedDogsAndYard(input.dogCount, input.yardSize);
  const today = businessToday(input.now);
  const fromDate = checkedDayFrom(input.fromDate, today, "Change from");
  // Within the horizon: the earlier days' visits up to it exist already, so none goes missing.
  if (fromDate > addDays(today, rules.horizonDays)) {
    throw new PlanChangeError(`Change from: a date within the next ${rules.horizonDays} days.`);
  }
  // The changed plan is priced as the catalogue prices it today; a new price waiting for its day
  // no longer applies to it (the customer agreed to this one).
  const price = await priceToLock(input.cataloguePlan._id, input.dogCount);
  const billingDay = input.billingDay ?? (await getSiteSettings()).billingRules.billingDay;
  return db.transaction().execute(async (trx) => {
    const current = await lockCustomersPlan(trx, input.planId, input.customerId);
    if (current.status === "cancelled") throw new PlanChangeError("This plan is cancelled.", 409);
    await prorateChange(trx, current, {
      weekdays,
      price,
      fromDate,
      today,
      billingDay,
      name: input.cataloguePlan.name,
    });
    const plan = await updatePlan(trx, current.id, {
      catalogue_plan_id: input.cataloguePlan._id,
      catalogue_plan_name: input.cataloguePlan.name,
      visits_per_week: weekdays.length,
      weekdays,
      dog_count: input.dogCount,
      yard_size: yardSize,
      notes: input.notes?.trim().slice(0, 1000) || null,
      schedule_from: fromDate,
      ...(price ? priceColumns(price) : {}),
    });
    await syncPlanVisits(trx, plan, rules, {
      now: input.now,
      from: fromDate,
      notBefore: lockedUntil(input.actor, rules, input.now),
      actorId: input.actor.id,
    });
    const days = describeWeekdays(weekdays);
    await record(
      trx,
      plan,
      input.actor,
      {
        kind: "changed",
        title: "Plan changed",
        summary: `From ${formatDay(fromDate)} your plan is ${plan.catalogue_plan_name}, every ${days}, for ${input.dogCount} dog${input.dogCount === 1 ? "" : "s"}.`,
        detail: `${plan.catalogue_plan_name}, ${days}, ${input.dogCount} dog${input.dogCount === 1 ? "" : "s"}, from ${formatDay(fromDate)}`,
      },
      email,
    );
    return plan;
  });
}

/**
 * A change's prorations (docs/decisions/117), in the change's transaction: the old terms are kept
 * (a skip of theirs is credited at their rate), and each month the change touches gets an
 * adjustment for the plan's next invoice: a month billed already at the old terms owes the new
 * ones' share of its days from the change on, less the old ones'; a month still to be billed (it
 * is billed as the plan now is) the other way round for its days before the change. A change that
 * applies at once is prorated by the slots each plan covers, a dated one by the days.
 */
async function prorateChange(
  trx: Db,
  current: CustomerPlan,
  change: {
    weekdays: readonly number[];
    price: LockedPrice | null;
    fromDate: string;
    today: string;
    billingDay: number;
    name: string;
  },
) {
  const rule: ProrationRule = change.fromDate === change.today ? "slots" : "days";
  // The month's history before this change: its adjustment is the difference it makes to it.
  const history = (await listPlanChangeHistory(trx, current.id)).map((past) => ({
    fromDay: past.from_day,
    old: {
      weekdays: past.old_weekdays,
      monthlyCents: past.old_monthly_cents ?? priceOrNull(current, monthOfDay(past.from_day)) ?? 0,
    },
    rule: (past.by_days ? "days" : "slots") as ProrationRule,
  }));
  const changeId = await insertPlanChange(trx, {
    planId: current.id,
    fromDay: change.fromDate,
    oldWeekdays: current.weekdays,
    oldMonthlyCents: priceOrNull(current, monthOfDay(change.fromDate)),
    byDays: rule === "days",
  });
  const firstMonth = monthOfDay(change.today < change.fromDate ? change.today : change.fromDate);
  const billed = new Set(await listBilledMonths(trx, current.id, firstMonth));
  const lastBilled = [...billed].sort().pop() ?? null;
  // A month before the one billed now that has no invoice is never billed: nothing to adjust.
  const billedFrom = currentPeriod(change.today, change.billingDay);
  const months = monthsTouched(change.today, change.fromDate, lastBilled).flatMap((month) => {
    const old = priceOrNull(current, month);
    const isBilled = billed.has(month);
    if (old === null || (!isBilled && month < billedFrom)) return [];
    return [{ month, billed: isBilled, oldMonthlyCents: old }];
  });
  const nextMonthly = change.price ? totalCents(change.price) : priceOrNull(current, monthOfDay(change.fromDate));
  if (nextMonthly === null) return;
  const adjustments = cumulativeAdjustments({
    history,
    currentWeekdays: current.weekdays,
    next: { weekdays: change.weekdays, monthlyCents: nextMonthly },
    startDate: current.start_date,
    fromDay: change.fromDate,
    rule,
    months,
  });
  await insertPlanAdjustments(
    trx,
    adjustments.map((adjustment) => ({
      planId: current.id,
      changeId,
      month: adjustment.month,
      amountCents: adjustment.amountCents,
      description:
        `Plan change to ${change.name} from ${formatDay(change.fromDate)}: ${monthTitle(adjustment.month)}, by the ${rule === "slots" ? "visits" : "days"} each plan covers`.slice(
          0,
          300,
        ),
    })),
  );
}

function priceOrNull(plan: CustomerPlan, month: string): number | null {
  const price = priceForMonth(plan, month);
  return price ? totalCents(price) : null;
}

const monthOfDay = (day: string) => `${day.slice(0, 7)}-01`;
const monthTitleFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const monthTitle = (month: string) => monthTitleFormat.format(new Date(`${month}T00:00:00Z`));

export type PlanActionInput = { planId: string; customerId: string; actor: PlanActor; now: Date; rules?: PlanRules };

type PlanStatusChange = {
  patch: Parameters<typeof updatePlan>[2];
  change: { kind: PlanEventKind; title: string; summary: string; detail: string };
  /** Runs once the plan and its visits are written, before the history and e-mails; may add a sentence. */
  after?: (trx: Db, plan: CustomerPlan) => Promise<string | null>;
};

/**
 * Pause, resume and cancel: lock the customer's plan, let `decide` refuse or say what to write,
 * write it, bring the following visits in line from the notice on, and record the change.
 */
async function changePlanStatus(
  db: Db,
  input: PlanActionInput,
  context: Awaited<ReturnType<typeof rulesAndContext>>,
  decide: (current: CustomerPlan, trx: Db, notBefore: Date) => Promise<PlanStatusChange> | PlanStatusChange,
  beforeLock?: (trx: Db) => Promise<void>,
) {
  const { rules, email } = context;
  const notBefore = lockedUntil(input.actor, rules, input.now);
  return db.transaction().execute(async (trx) => {
    if (beforeLock) await beforeLock(trx);
    const current = await lockCustomersPlan(trx, input.planId, input.customerId);
    const { patch, change, after } = await decide(current, trx, notBefore);
    const plan = await updatePlan(trx, current.id, patch);
    await syncPlanVisits(trx, plan, rules, { now: input.now, notBefore, actorId: input.actor.id });
    const more = after ? await after(trx, plan) : null;
    await record(trx, plan, input.actor, more ? { ...change, summary: `${change.summary} ${more}` } : change, email);
    return plan;
  });
}

/** Pauses the plan from one day to another (at most the longest pause); its visits then are skipped. */
export async function pausePlan(db: Db, input: PlanActionInput & { from: string; until: string }) {
  const context = await rulesAndContext(input);
  const { rules } = context;
  const today = businessToday(input.now);
  const from = checkedDayFrom(input.from, today, "From");
  if (!isRealDay(input.until)) throw new PlanChangeError("Until: enter a date.");
  const until = input.until;
  if (until < from) throw new PlanChangeError("Until must be on or after From.");
  const days = Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > rules.longestPauseDays) {
    throw new PlanChangeError(`A pause can last at most ${rules.longestPauseDays} days.`);
  }
  return changePlanStatus(db, input, context, (current) => {
    if (current.status === "cancelled") throw new PlanChangeError("This plan is cancelled.", 409);
    return {
      patch: { status: "paused", paused_from: from, paused_until: until },
      change: {
        kind: "paused",
        title: "Service paused",
        summary: `Your service is paused from ${formatDay(from)} until ${formatDay(until)}. Visits in those days are skipped.`,
        detail: `${formatDay(from)} to ${formatDay(until)}`,
      },
    };
  });
}

/** Ends a pause now: the visits it skipped that can still change are scheduled again. */
export async function resumePlan(db: Db, input: PlanActionInput) {
  return changePlanStatus(db, input, await rulesAndContext(input), (current) => {
    if (current.status !== "paused") throw new PlanChangeError("This plan is not paused.", 409);
    return {
      patch: { status: "active", paused_from: null, paused_until: null },
      change: {
        kind: "resumed",
        title: "Service resumed",
        summary: "Your service is back on: your visits are scheduled again.",
        detail: "Pause ended",
      },
    };
  });
}

/**
 * Where a cancellation made now ends the plan: visits that start before `notBefore` (the change
 * notice, for a customer) still happen, and the last of them is the plan's last visit day (today
 * when there is none). The cancellation and its preview (decision 115) both read it.
 */
export async function cancellationEnd(
  db: Db,
  plan: Pick<CustomerPlan, "id">,
  actor: PlanActor,
  rules: PlanRules,
  now: Date,
) {
  const notBefore = lockedUntil(actor, rules, now);
  const last = await lastPlanVisitBefore(db, plan.id, notBefore);
  return { notBefore, last, lastDay: last ? businessToday(last) : businessToday(now) };
}

/**
 * What a cancellation also does in its transaction (the credit note of decision 115, which
 * billing owns): `beforeLock` takes the locks that must come before the plan's; `onCancel` is
 * told where the plan ends while it is still as it was, and answers what to do once it is
 * cancelled (a sentence for the e-mail, or null).
 */
export type CancelHooks = {
  beforeLock?: (trx: Db) => Promise<void>;
  onCancel?: (
    trx: Db,
    current: CustomerPlan,
    end: { lastDay: string; notBefore: Date },
  ) => Promise<((trx: Db, plan: CustomerPlan) => Promise<string | null>) | null>;
};

/** Why the customer leaves, when they (or the admin) said: optional (decision 130). */
export type CancelAnswer = { reason?: CancelReason | null; reasonNote?: string | null };

/**
 * Cancels the plan. Visits that start within the change notice (for a customer) still happen;
 * the last of them is the plan's last visit day, and every later one is cancelled. A hold for
 * payment ends with it (nothing is left to hold).
 */
export async function cancelPlan(db: Db, input: PlanActionInput & CancelAnswer, hooks: CancelHooks = {}) {
  const context = await rulesAndContext(input);
  return changePlanStatus(
    db,
    input,
    context,
    async (current, trx) => {
      if (current.status === "cancelled") throw new PlanChangeError("This plan is already cancelled.", 409);
      const { last, lastDay, notBefore } = await cancellationEnd(trx, current, input.actor, context.rules, input.now);
      const after = hooks.onCancel ? await hooks.onCancel(trx, current, { lastDay, notBefore }) : null;
      const name = current.catalogue_plan_name;
      return {
        patch: {
          status: "cancelled",
          cancelled_at: input.now,
          last_visit_date: lastDay,
          paused_from: null,
          paused_until: null,
          payment_hold_from: null,
          cancel_reason: input.reason ?? null,
          cancel_note: input.reasonNote ?? null,
        },
        change: {
          kind: "cancelled",
          title: "Plan cancelled",
          summary: last
            ? `Your ${name} is cancelled. Your last visit is on ${formatDay(lastDay)}.`
            : `Your ${name} is cancelled. There are no more visits.`,
          detail: `Last visit ${formatDay(lastDay)}`,
        },
        after: after ?? undefined,
      };
    },
    hooks.beforeLock,
  );
}

export type VisitActionInput = { visitId: string; customerId: string; actor: PlanActor; now: Date; rules?: PlanRules };

/** The customer skips one visit of their plan, until the change notice before it starts. */
export async function skipVisit(db: Db, input: VisitActionInput) {
  return changeOneVisit(db, input, "skip");
}

/** The customer takes a skip back, under the same notice. */
export async function undoSkip(db: Db, input: VisitActionInput) {
  return changeOneVisit(db, input, "undo");
}

async function changeOneVisit(db: Db, input: VisitActionInput, change: "skip" | "undo") {
  const { rules, email } = await rulesAndContext(input);
  return db.transaction().execute(async (trx) => {
    // One lock order everywhere (docs/decisions/112): the plan, then its visits, as every plan
    // change, pause and payment hold takes them. Locking the visit first and then the plan, as
    // this did, deadlocked with a pause or a payment's resume of the same plan run at once. So
    // the visit's plan is read without a lock, the plan locked, and the visit locked after it.
    const planId = await findCustomerVisitPlanId(trx, input.visitId, input.customerId);
    if (!planId) throw new PlanChangeError("We could not find that visit.", 404);
    const plan = await lockCustomersPlan(trx, planId, input.customerId);
    const visit = await lockCustomerVisit(trx, input.visitId, input.customerId);
    // A visit's plan never changes, but a visit may be deleted meanwhile (a plan change removes
    // a visit no longer on its days): read again under the locks.
    if (!visit || visit.plan_id !== plan.id) throw new PlanChangeError("We could not find that visit.", 404);
    if (!input.actor.isAdmin && !canChangeVisit(visit.service_date, input.now, rules.changeNoticeHours)) {
      throw new PlanChangeError(changeNoticeMessage(rules.changeNoticeHours), 409);
    }
    if (visit.service_date <= input.now) throw new PlanChangeError("This visit has already started.", 409);
    const date = formatBusinessDate(visit.service_date);
    if (change === "skip") {
      if (visit.status !== "scheduled") throw new PlanChangeError("Only a scheduled visit can be skipped.", 409);
      await setPlanVisit(trx, visit.id, { status: "skipped", skip_reason: "customer" });
    } else {
      if (visit.status !== "skipped" || visit.skip_reason !== "customer") {
        throw new PlanChangeError("This visit is not skipped.", 409);
      }
      if (plan.status === "cancelled") throw new PlanChangeError("This plan is cancelled.", 409);
      // A visit the customer skipped before pausing over its day stays skipped while the pause
      // lasts: the pause left it alone (it was skipped already), and undoing it now would put a
      // visit inside the pause. After "Resume now" the skip can be undone.
      if (isPausedOn(plan, businessToday(visit.service_date))) {
        throw new PlanChangeError(PAUSED_VISIT_MESSAGE, 409);
      }
      await setPlanVisit(trx, visit.id, { status: "scheduled", skip_reason: null });
    }
    await recordVisitEvent(trx, {
      visitId: visit.id,
      actorId: input.actor.id,
      kind: "status",
      from: visit.status,
      to: change === "skip" ? "skipped" : "scheduled",
      detail: change === "skip" ? "Skipped by customer" : "Skip undone",
    });
    await record(
      trx,
      plan,
      input.actor,
      change === "skip"
        ? {
            kind: "visit_skipped",
            title: "Visit skipped",
            summary: `Your visit on ${date} is skipped.`,
            detail: date,
          }
        : {
            kind: "skip_undone",
            title: "Skip undone",
            summary: `Your visit on ${date} is back on.`,
            detail: date,
          },
      email,
    );
  });
}

function formatDay(day: string) {
  return formatBusinessDate(startOfBusinessDay(day)!);
}

/**
 * Holds a plan for an overdue payment (decision 104), inside the caller's transaction (the
 * invoice's, locked first): from today its following visits that have not started are skipped
 * with the reason "payment_overdue", and the hourly generator makes new ones skipped too. The
 * customer's own pause is left as it is. Answers false (nothing written) for a cancelled plan or
 * one held already. The e-mail is the caller's: it knows the invoice.
 */
export async function holdPlanForPayment(
  trx: Db,
  input: { planId: string; now: Date; detail: string; rules?: PlanRules },
): Promise<boolean> {
  const rules = input.rules ?? (await getSiteSettings()).planRules;
  const current = await lockPlan(trx, input.planId);
  if (!current || current.status === "cancelled" || current.payment_hold_from !== null) return false;
  const plan = await updatePlan(trx, current.id, { payment_hold_from: businessToday(input.now) });
  await syncPlanVisits(trx, plan, rules, { now: input.now, actorId: null });
  await insertPlanEvent(trx, { planId: plan.id, actorId: null, kind: "paused", detail: input.detail });
  return true;
}

/**
 * Ends a plan's hold for payment (decision 104), inside the caller's transaction: its following
 * visits skipped "payment_overdue" that have not started are scheduled again (or skipped
 * "paused" where the customer's own pause covers them). Answers false when it was not held.
 */
export async function releasePaymentHold(
  trx: Db,
  input: { planId: string; now: Date; detail: string; rules?: PlanRules },
): Promise<boolean> {
  const rules = input.rules ?? (await getSiteSettings()).planRules;
  const current = await lockPlan(trx, input.planId);
  if (!current || current.payment_hold_from === null) return false;
  const plan = await updatePlan(trx, current.id, { payment_hold_from: null });
  await syncPlanVisits(trx, plan, rules, { now: input.now, actorId: null });
  await insertPlanEvent(trx, { planId: plan.id, actorId: null, kind: "resumed", detail: input.detail });
  return true;
}
