import {
  planVisitType,
  plannedVisits,
  plannedVisitState,
  scheduleRules,
  serviceDayFor,
  visitStartsAt,
  type PlannedVisit,
  type ScheduleRules,
} from "./plan-schedule";
import { CLOSED_DAY_CANCELLED_DETAIL } from "./plan-constants";
import { creditVisitsOfEndedPlans } from "~/features/billing/ended-plan-credits.server";
import { expireStaleCheckoutsOf } from "~/features/billing/stripe-checkout-expiry.server";
import { getSiteSettings } from "~/content/content.server";
import type { PlanRules } from "~/content/types";
import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { visitMovedDetail } from "~/features/visits/visit-workflow.server";
import {
  cancelManagedVisits,
  findExistingSlots,
  insertPlanVisits,
  listEndingPlansBatch,
  listManagedVisitsBetween,
  listOpenPlansBatch,
  lockPlansForVisits,
  moveManagedVisits,
  recordVisitEvents,
  type NewPlanVisit,
  type PlanForVisits,
} from "~/models/plan-visit.server";
import { withAdvisoryLock } from "~/utils/advisory-lock.server";
import { getDb, type Db } from "~/utils/db.server";
import { byId, keysetBatches } from "~/utils/keyset-batches.server";

/**
 * The visits made from customer plans (issue 25, docs/decisions/090 and 091): every active or
 * paused plan gets its visits from today to today + the plan horizon, and a managed visit that now
 * sits on a closed day moves to the next open weekday. One run at a time across every machine
 * (a session advisory lock); the unique key (plan_id, plan_slot) makes each visit once even if two
 * runs overlap. It never touches a visit that is completed, missed, skipped or cancelled, nor one
 * an admin changed by hand (plan_left_at set).
 */

/** The advisory lock's name (hashed by hashtextextended): one generator at a time. */
export const PLAN_VISITS_LOCK = "swift-scoop:plan-visit-generator";
/** Plans read per keyset batch; their missing visits go in one INSERT (about 4,700 at most). */
const PLAN_BATCH = 1000;
/** Calendars kept per run (plans share a few hundred at most; a run with more starts afresh). */
const CALENDARS_KEPT = 10_000;

export type GenerateRules = Pick<PlanRules, "horizonDays" | "firstVisitTime" | "closedDays">;

export type GenerateOptions = {
  now: Date;
  /** A database handle (not a transaction: the run pins one connection of its own). */
  db?: Db;
  /** The owner's plan rules; by default Sanity's site settings. */
  rules?: GenerateRules;
  /** Stops between batches (the server stopping): what was done so far stays done. */
  signal?: AbortSignal;
  /** Awaited between batches (the server's background run paces itself: decision 099). */
  betweenBatches?: () => Promise<void>;
  /** Plans per batch (tests use small ones to cross batch edges). */
  batchSize?: number;
  /** Tests only: another lock name lets two generators run at once, to test the unique key alone. */
  lockName?: string;
};

export type GenerateResult = {
  /** False when another generator held the lock: this one did nothing. */
  ran: boolean;
  /** Plans read. */
  plans: number;
  /** Visits inserted. */
  inserted: number;
  /** Managed visits moved off a closed day. */
  moved: number;
  /** Managed visits on a closed day with no open weekday within 31 days after their slot: cancelled. */
  cancelled: number;
};

export async function generatePlanVisits(options: GenerateOptions): Promise<GenerateResult> {
  const { now, signal } = options;
  const db = options.db ?? (await getDb());
  const rules = options.rules ?? (await getSiteSettings()).planRules;
  const batchSize = options.batchSize ?? PLAN_BATCH;
  const today = businessToday(now);
  const run: Run = {
    now,
    today,
    lastDay: addDays(today, rules.horizonDays),
    rules,
    schedule: scheduleRules(rules),
    batchSize,
    signal,
    betweenBatches: options.betweenBatches,
    calendars: new Map(),
  };

  const locked = await withAdvisoryLock(db, options.lockName ?? PLAN_VISITS_LOCK, async (conn) => {
    const counts = { plans: 0, inserted: 0, moved: 0, cancelled: 0 };
    await moveOffClosedDays(conn, run, counts);
    await generateForPlans(conn, run, counts, (after) => listOpenPlansBatch(conn, after, batchSize));
    // Cancelled plans make visits only up to their last visit day (usually made already).
    await generateForPlans(conn, run, counts, (after) => listEndingPlansBatch(conn, today, after, batchSize));
    return counts;
  });
  if (!locked.acquired) return { ran: false, plans: 0, inserted: 0, moved: 0, cancelled: 0 };
  return { ran: true, ...locked.result };
}

type Run = {
  now: Date;
  today: string;
  /** The horizon's last day (included). */
  lastDay: string;
  rules: GenerateRules;
  schedule: ScheduleRules;
  batchSize: number;
  signal?: AbortSignal;
  betweenBatches?: () => Promise<void>;
  /** Planned visits by calendar (weekdays, start, pause, last visit): shared by the plans alike. */
  calendars: Map<string, PlannedVisit[]>;
};
type Counts = Omit<GenerateResult, "ran">;

async function generateForPlans(
  conn: Db,
  run: Run,
  counts: Counts,
  nextBatch: (afterId: string | null) => Promise<PlanForVisits[]>,
) {
  const batches = keysetBatches(nextBatch, {
    batchSize: run.batchSize,
    keyOf: byId,
    signal: run.signal,
    betweenBatches: run.betweenBatches,
  });
  for await (const plans of batches) {
    counts.plans += plans.length;
    const taken = await findExistingSlots(
      conn,
      plans.map((plan) => plan.id),
      run.today,
      run.lastDay,
    );
    const missing = missingVisits(plans, run, taken);
    if (missing.length > 0) {
      // The plans that lack visits, locked and read again: a plan change committed since the
      // batch was read is seen, and one starting now waits until these visits are made.
      const planIds = [...new Set(missing.map((row) => row.plan_id))];
      await conn.transaction().execute(async (trx) => {
        const rows = missingVisits(await lockPlansForVisits(trx, planIds), run, taken);
        counts.inserted += await insertPlanVisits(trx, rows);
      });
    }
  }
}

/** The visits these plans should have and do not (their slot has no visit in `taken`). */
function missingVisits(plans: readonly PlanForVisits[], run: Run, taken: ReadonlySet<string>): NewPlanVisit[] {
  const rows: NewPlanVisit[] = [];
  for (const plan of plans) {
    const serviceType = planVisitType(plan.visits_per_week);
    for (const visit of plannedVisitsOf(plan, run)) {
      // A visit is never made after its start: nobody planned for a visit already late.
      if (visit.startsAt < run.now || taken.has(`${plan.id} ${visit.slot}`)) continue;
      rows.push({
        customer_id: plan.customer_id,
        service_type: serviceType,
        service_date: visit.startsAt,
        ...plannedVisitState(visit),
        plan_id: plan.id,
        plan_slot: visit.slot,
      });
    }
  }
  return rows;
}

/**
 * The plan's visits from today to the horizon's end. Most plans share their calendar with many
 * others (the same weekdays, started before today, not paused), and working out a calendar
 * reads each day's time zone offset: it is worked out once per run and calendar.
 */
function plannedVisitsOf(plan: PlanForVisits, run: Run): readonly PlannedVisit[] {
  const key = [
    plan.weekdays.join(","),
    // A start before today is today (plannedVisits starts at the later of the two).
    plan.start_date > run.today ? plan.start_date : "",
    // The same for the day a change of days applies from (decision 092).
    plan.schedule_from && plan.schedule_from > run.today ? plan.schedule_from : "",
    plan.status,
    plan.paused_from ?? "",
    plan.paused_until ?? "",
    plan.last_visit_date ?? "",
    plan.payment_hold_from ?? "",
  ].join("|");
  let visits = run.calendars.get(key);
  if (!visits) {
    visits = plannedVisits(plan, run.schedule, run.today, run.lastDay);
    if (run.calendars.size >= CALENDARS_KEPT) run.calendars.clear();
    run.calendars.set(key, visits);
  }
  return visits;
}

/**
 * A closed day added after its visits were made (decision 091): each managed visit on it, from
 * now to the horizon's end, moves to its slot's service day (the next weekday that is not closed)
 * at the first visit time, with a history line; with no such day within 31 days it is cancelled.
 */
async function moveOffClosedDays(conn: Db, run: Run, counts: Counts) {
  const names = new Map(run.rules.closedDays.map((day) => [day.date, day.name]));
  const days = [...names.keys()].filter((day) => day >= run.today && day <= run.lastDay).sort();
  for (const day of days) {
    const dayStart = startOfBusinessDay(day);
    const dayEnd = startOfBusinessDay(addDays(day, 1));
    if (!dayStart || !dayEnd) continue;
    const from = dayStart < run.now ? run.now : dayStart;
    const why = `${names.get(day)} is a closed day`;
    const batches = keysetBatches(
      (after: { date: Date; id: string } | null) => listManagedVisitsBetween(conn, from, dayEnd, after, run.batchSize),
      {
        batchSize: run.batchSize,
        keyOf: (last) => ({ date: last.service_date, id: last.id }),
        signal: run.signal,
        betweenBatches: run.betweenBatches,
      },
    );
    for await (const visits of batches) {
      const moves: { id: string; from: Date; to: Date }[] = [];
      const stranded: string[] = [];
      for (const visit of visits) {
        let target = serviceDayFor(visit.plan_slot, run.schedule.closed);
        let startsAt = target ? visitStartsAt(target, run.rules.firstVisitTime) : null;
        // The slot's day is open again but already past: the next open weekday after this one.
        if (startsAt && startsAt < run.now) {
          target = serviceDayFor(day, run.schedule.closed);
          startsAt = target ? visitStartsAt(target, run.rules.firstVisitTime) : null;
        }
        if (startsAt) moves.push({ id: visit.id, from: visit.service_date, to: startsAt });
        else stranded.push(visit.id);
      }
      const credited: string[] = [];
      await conn.transaction().execute(async (trx) => {
        const moved = new Set(await moveManagedVisits(trx, moves));
        await recordVisitEvents(
          trx,
          moves
            .filter((move) => moved.has(move.id))
            .map((move) => ({
              visitId: move.id,
              kind: "rescheduled" as const,
              from: "scheduled" as const,
              to: "scheduled" as const,
              detail: visitMovedDetail(move.from, move.to, why),
            })),
        );
        const cancelled = await cancelManagedVisits(trx, stranded);
        await recordVisitEvents(
          trx,
          cancelled.map((visitId) => ({
            visitId,
            kind: "status" as const,
            from: "scheduled" as const,
            to: "cancelled" as const,
            detail: `${why}, ${CLOSED_DAY_CANCELLED_DETAIL}`,
          })),
        );
        // A visit of a plan cancelled already has no next invoice: its credit comes at once (decision 120).
        credited.push(...(await creditVisitsOfEndedPlans(trx, cancelled, run.now)));
        counts.moved += moved.size;
        counts.cancelled += cancelled.length;
      });
      await expireStaleCheckoutsOf(conn, credited, run.now);
    }
  }
}
