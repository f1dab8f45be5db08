import { sql, type SelectQueryBuilder } from "kysely";
import type {
  Database,
  HealthFlag,
  MissedReason,
  SkipReason,
  Visit,
  VisitEventKind,
  VisitStatus,
  VisitType,
} from "../../db/schema";
import type { CustomerMatch } from "./customer.server";
import { BUSINESS_TIME_ZONE } from "~/utils/business-time";
import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/** A row of `services`: one visit to a customer's yard (the table keeps the spec's name). */
export type { Visit };

/**
 * A customer's completed visits, newest visit date first: the dashboard's "Your last 5 completed
 * services" and the visits its photos come from (decision 047; the spec's literal query listed
 * every status, future visits first). Served by services (customer_id, service_date desc).
 */
export function completedVisitsOf(db: Db, customerId: string) {
  return db
    .selectFrom("services")
    .where("customer_id", "=", customerId)
    .where("status", "=", "completed")
    .orderBy("service_date", "desc")
    .orderBy("id");
}

/** SPEC 6/9: the customer's own latest 5 completed visits ("services"). */
export async function listRecentCompletedVisitsForCustomer(customerId: string, limit = 5): Promise<Visit[]> {
  const db = await getDb();
  return completedVisitsOf(db, customerId).selectAll().limit(limit).execute();
}

export type NewVisitInput = {
  customerId: string;
  serviceType: VisitType;
  serviceDate: Date;
  notes: string | null;
  createdBy: string;
  /** The booking this visit comes from; services.booking_id is unique, so one visit per booking. */
  bookingId?: string | null;
};

/** SPEC 4: an admin creates a visit ("Create Service") as 'scheduled'. */
export async function createVisit(input: NewVisitInput, handle?: Db): Promise<Visit> {
  const db = handle ?? (await getDb());
  return db
    .insertInto("services")
    .values({
      customer_id: input.customerId,
      service_type: input.serviceType,
      service_date: input.serviceDate,
      status: "scheduled",
      notes: input.notes,
      created_by: input.createdBy,
      booking_id: input.bookingId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The visit created from a booking, if any. */
export async function findVisitByBookingId(bookingId: string, handle?: Db): Promise<Visit | null> {
  if (!isUuid(bookingId)) return null;
  const db = handle ?? (await getDb());
  return (await db.selectFrom("services").selectAll().where("booking_id", "=", bookingId).executeTakeFirst()) ?? null;
}

export type VisitListRow = {
  id: string;
  service_type: VisitType;
  service_date: Date;
  status: VisitStatus;
  /** The customer plan it was made from, if any (a "Plan" marker on the lists). */
  plan_id: string | null;
  skip_reason: SkipReason | null;
  customer_id: string;
  customer_email: string;
  customer_name: string | null;
  street: string | null;
  city: string | null;
  zip: string | null;
};

export type VisitCursor = { date: Date; id: string };

type VisitsQuery = SelectQueryBuilder<Database, "services", object>;

/**
 * One page of visits in [from, to), in time order, with their customer and yard address: the
 * rows of both visit lists. The page's services rows are chosen and limited first and only they
 * are joined (decision 077): joined before the limit, PostgreSQL sized a Memoize cache for every
 * visit of the range (100,000 in a day at full size) and the query took 6 ms instead of 1.
 */
function visitPageBetween(db: Db, from: Date, to: Date, limit: number, filter: (q: VisitsQuery) => VisitsQuery) {
  const page = filter(db.selectFrom("services").where("service_date", ">=", from).where("service_date", "<", to))
    // on_my_way_at for Today's cards ("On my way sent at 10:31 AM"): the same row, no second read.
    .select([
      "id",
      "service_type",
      "service_date",
      "status",
      "plan_id",
      "skip_reason",
      "customer_id",
      "on_my_way_at",
      // Whose route the visit is on (Today and the routes page, decision 126).
      "assigned_to",
      "assigned_by_hand",
    ])
    .orderBy("service_date")
    .orderBy("id")
    .limit(limit);
  return db
    .selectFrom(page.as("services"))
    .innerJoin("users", "users.id", "services.customer_id")
    .leftJoin("profiles", "profiles.user_id", "services.customer_id")
    .leftJoin("yard_profiles", "yard_profiles.user_id", "services.customer_id")
    .select([
      "services.id",
      "services.service_type",
      "services.service_date",
      "services.status",
      "services.plan_id",
      "services.skip_reason",
      "services.customer_id",
      "users.email as customer_email",
      "profiles.full_name as customer_name",
      "yard_profiles.street",
      "yard_profiles.city",
      "yard_profiles.zip",
    ])
    .orderBy("services.service_date")
    .orderBy("services.id");
}

/**
 * The admin's Visits list: a date range in time order, optionally one status, one customer and
 * the customers a search names, `limit` rows after the keyset cursor
 * (services_service_date_id_idx). Never selects gate_code.
 */
export async function listVisits(options: {
  from: Date;
  to: Date;
  status?: VisitStatus;
  customerId?: string;
  /** From matchCustomers: the matching customers' ids, or for a common term its LIKE pattern. */
  customers?: CustomerMatch;
  after?: VisitCursor | null;
  limit: number;
}): Promise<VisitListRow[]> {
  const customers = options.customers;
  if (customers && "ids" in customers && customers.ids.length === 0) return [];
  return visitPageBetween(await getDb(), options.from, options.to, options.limit, (query) => {
    if (options.status) query = query.where("status", "=", options.status);
    if (options.customerId) query = query.where("customer_id", "=", options.customerId);
    if (customers && "ids" in customers) query = query.where("customer_id", "in", customers.ids);
    else if (customers) {
      // A term naming over 1,000 customers: walking the range in order, most rows match.
      const { pattern } = customers;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom("users")
            .leftJoin("profiles", "profiles.user_id", "users.id")
            .select("users.id")
            .whereRef("users.id", "=", "services.customer_id")
            .where((inner) =>
              inner.or([
                inner(sql`lower(users.email)`, "like", pattern),
                inner(sql`lower(profiles.full_name)`, "like", pattern),
              ]),
            ),
        ),
      );
    }
    if (options.after) {
      const { date, id } = options.after;
      query = query.where(sql<boolean>`(service_date, id) > (${date}, ${id})`);
    }
    return query;
  }).execute();
}

export type TodayRow = VisitListRow & {
  dog_count: number | null;
  dog_names: string | null;
  loose_dog: boolean | null;
  hazards: string | null;
  has_gate_code: boolean;
  /** The yard's coordinates (admins only; migration 0012). */
  latitude: number | null;
  longitude: number | null;
  /** The catalogue plan of the customer plan the visit was made from, and that plan's dogs. */
  catalogue_plan_id: string | null;
  plan_dog_count: number | null;
  /** The yard's mobile, else the newest number on the customer's quotes (admins only). */
  phone: string | null;
  /** When "On my way" was sent (migration 0013), or null. */
  on_my_way_at: Date | null;
  /** Who works it, and whether the owner or office put it there by hand (migration 0039). */
  assigned_to: string | null;
  assigned_by_hand: boolean;
};

/**
 * Today's visits in time order, for the field: `limit` rows after the visit `after` (its id; the
 * database compares its stored (service_date, id), so no timestamp travels through a URL).
 * Says whether a gate code exists, never what it is.
 */
export async function listVisitsBetween(
  from: Date,
  to: Date,
  options: { after?: string | null; limit: number; assignedTo?: string },
): Promise<TodayRow[]> {
  const anchor = options.after;
  const assignedTo = options.assignedTo;
  return visitPageBetween(await getDb(), from, to, options.limit, (query) => {
    // A technician's Today: only the visits assigned to them (decision 123).
    const mine = assignedTo ? query.where("assigned_to", "=", assignedTo) : query;
    return anchor
      ? mine.where(
          sql<boolean>`(service_date, id) > (select a.service_date, a.id from services a where a.id = ${anchor})`,
        )
      : mine;
  })
    .leftJoin("customer_plans", "customer_plans.id", "services.plan_id")
    .select([
      "services.on_my_way_at",
      "services.assigned_to",
      "services.assigned_by_hand",
      "yard_profiles.dog_count",
      "yard_profiles.dog_names",
      "yard_profiles.loose_dog",
      "yard_profiles.hazards",
      sql<boolean>`coalesce(yard_profiles.gate_code <> '', false)`.as("has_gate_code"),
      "yard_profiles.latitude",
      "yard_profiles.longitude",
      "customer_plans.catalogue_plan_id",
      "customer_plans.dog_count as plan_dog_count",
      // As findCustomerPhone, per row (quote_requests_email_lower_idx): the yard's mobile first.
      sql<string | null>`coalesce(
        nullif(yard_profiles.mobile_phone, ''),
        (select q.phone from quote_requests q where lower(q.email) = lower(users.email)
          order by lower(q.email), q.created_at desc limit 1)
      )`.as("phone"),
    ])
    .execute();
}

/**
 * A staff member's own visits in [from, to), in time order (services_assigned_to_service_date_idx):
 * the rows of "My visits" (decision 128). Never selects gate_code.
 */
export async function listAssignedVisits(
  staffId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<VisitListRow[]> {
  return visitPageBetween(await getDb(), from, to, limit, (query) =>
    query.where("assigned_to", "=", staffId),
  ).execute();
}

/** Whether a visit exists (a paging link may name one deleted since). */
/** Whether the visit is assigned to this staff member and falls in [from, to) (decision 123). */
export async function isVisitAssignedBetween(visitId: string, staffId: string, from: Date, to: Date) {
  if (!isUuid(visitId)) return false;
  const db = await getDb();
  const row = await db
    .selectFrom("services")
    .select("id")
    .where("id", "=", visitId)
    .where("assigned_to", "=", staffId)
    .where("service_date", ">=", from)
    .where("service_date", "<", to)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Who works the visit (null: nobody yet), as the owner or office set it on its page or on the
 * routes page: by hand, so the day's split leaves it alone (decision 126); unassigning gives it
 * back to the split. Locks the row in the caller's transaction and returns who worked it before
 * (undefined: no such visit), so the History names the change that was really made (decision 128).
 */
export async function assignVisit(db: Db, visitId: string, staffId: string | null) {
  const before = await db
    .selectFrom("services")
    .select(["assigned_to", "assigned_by_hand"])
    .where("id", "=", visitId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) return undefined;
  if (before.assigned_to !== staffId || before.assigned_by_hand !== (staffId !== null)) {
    await db
      .updateTable("services")
      .set({ assigned_to: staffId, assigned_by_hand: staffId !== null, updated_at: new Date() })
      .where("id", "=", visitId)
      .execute();
  }
  return { previous: before.assigned_to };
}

/**
 * The day's split (decision 126): each visit to its staff member, in one statement per 5,000,
 * never a visit put somewhere by hand (checked again here, in case it was moved meanwhile).
 */
export async function setSplitAssignments(db: Db, changes: readonly { visitId: string; staffId: string }[]) {
  let updated = 0;
  for (let i = 0; i < changes.length; i += 5000) {
    const chunk = changes.slice(i, i + 5000);
    const result = await sql`update services s set assigned_to = u.staff_id, updated_at = now()
      from unnest(${chunk.map((c) => c.visitId)}::uuid[], ${chunk.map((c) => c.staffId)}::uuid[]) as u(id, staff_id)
      where s.id = u.id and not s.assigned_by_hand and s.assigned_to is distinct from u.staff_id`.execute(db);
    updated += Number(result.numAffectedRows ?? 0);
  }
  return updated;
}

/**
 * "Move the customer" and "Reassign" (decision 126): the customers' coming scheduled visits go to
 * the staff member, following the customer (no longer by hand).
 */
export async function assignComingVisitsOfCustomers(
  db: Db,
  customerIds: readonly string[],
  staffId: string,
  from: Date,
) {
  if (customerIds.length === 0) return 0;
  const result = await db
    .updateTable("services")
    .set({ assigned_to: staffId, assigned_by_hand: false, updated_at: new Date() })
    .where("customer_id", "in", [...customerIds])
    .where("service_date", ">=", from)
    .where("status", "=", "scheduled")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function visitExists(visitId: string): Promise<boolean> {
  if (!isUuid(visitId)) return false;
  const db = await getDb();
  const row = await db.selectFrom("services").select("id").where("id", "=", visitId).executeTakeFirst();
  return Boolean(row);
}

export type VisitDetail = Visit & { customer_email: string; customer_name: string | null };

export async function getVisit(visitId: string, db?: Db): Promise<VisitDetail | null> {
  if (!isUuid(visitId)) return null;
  const handle = db ?? (await getDb());
  const row = await handle
    .selectFrom("services")
    .innerJoin("users", "users.id", "services.customer_id")
    .leftJoin("profiles", "profiles.user_id", "services.customer_id")
    .selectAll("services")
    .select(["users.email as customer_email", "profiles.full_name as customer_name"])
    .where("services.id", "=", visitId)
    .executeTakeFirst();
  return row ?? null;
}

/** A visit only if it is this customer's own: anyone else's id reads as missing. */
export async function getVisitForCustomer(visitId: string, customerId: string): Promise<Visit | null> {
  if (!isUuid(visitId)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("services")
    .selectAll()
    .where("id", "=", visitId)
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return row ?? null;
}

/** The customer's visit history, newest first, keyset-paged (services_customer_id_service_date_idx). */
export async function listVisitsForCustomer(
  customerId: string,
  options: { before?: VisitCursor | null; limit: number },
): Promise<Visit[]> {
  const db = await getDb();
  let query = db.selectFrom("services").selectAll().where("customer_id", "=", customerId);
  if (options.before) {
    const { date, id } = options.before;
    query = query.where(sql<boolean>`(service_date, id) < (${date}, ${id})`);
  }
  return query.orderBy("service_date", "desc").orderBy("id", "desc").limit(options.limit).execute();
}

/**
 * Moves a visit from one of `from` to `to` in one statement, so that two admins pressing two
 * buttons at once cannot both succeed. Undefined when the visit is not (or no longer) in `from`.
 * `skip_reason` is kept only on a skipped visit: any other status clears it. `leavePlanAt`: a
 * change by hand, which takes a visit made from a plan off it (plan_left_at, decision 090); a
 * visit that left already keeps its first time, and one not made from a plan has none.
 */
export async function updateVisitStatus(
  db: Db,
  visitId: string,
  from: readonly VisitStatus[],
  to: VisitStatus,
  patch: {
    missed_reason?: MissedReason | null;
    missed_note?: string | null;
    service_date?: Date;
    completed_at?: Date | null;
    skip_reason?: SkipReason | null;
  } = {},
  options: { leavePlanAt?: Date } = {},
): Promise<Visit | undefined> {
  const { skip_reason: skipReason, ...rest } = patch;
  const leaveAt = options.leavePlanAt;
  return db
    .updateTable("services")
    .set({
      status: to,
      updated_at: new Date(),
      ...rest,
      skip_reason: to === "skipped" ? (skipReason ?? null) : null,
      ...(leaveAt
        ? {
            plan_left_at: sql<Date | null>`case when plan_id is null then null
              else coalesce(plan_left_at, ${leaveAt}::timestamptz) end`,
          }
        : {}),
    })
    .where("id", "=", visitId)
    .where("status", "in", [...from])
    .returningAll()
    .executeTakeFirst();
}

/**
 * A scheduled visit follows its booking to the booking that replaced it, at the new time
 * (decision 046). Undefined when the visit is no longer scheduled.
 */
export async function moveVisitToBooking(trx: Db, visitId: string, bookingId: string, serviceDate: Date) {
  return trx
    .updateTable("services")
    .set({ booking_id: bookingId, service_date: serviceDate, updated_at: new Date() })
    .where("id", "=", visitId)
    .where("status", "=", "scheduled")
    .returningAll()
    .executeTakeFirst();
}

export async function createReturnVisit(
  db: Db,
  missed: Visit,
  serviceDate: Date,
  createdBy: string,
  notes: string,
): Promise<Visit | undefined> {
  return (
    db
      .insertInto("services")
      .values({
        customer_id: missed.customer_id,
        service_type: missed.service_type,
        service_date: serviceDate,
        status: "scheduled",
        notes,
        created_by: createdBy,
        return_visit_of: missed.id,
      })
      // services_return_visit_of_key: a second return visit for the same missed one is refused.
      .onConflict((oc) => oc.column("return_visit_of").where("return_visit_of", "is not", null).doNothing())
      .returningAll()
      .executeTakeFirst()
  );
}

export async function findReturnVisit(missedId: string): Promise<Pick<Visit, "id" | "service_date"> | null> {
  const db = await getDb();
  return (
    (await db
      .selectFrom("services")
      .select(["id", "service_date"])
      .where("return_visit_of", "=", missedId)
      .executeTakeFirst()) ?? null
  );
}

export async function updateVisitNotes(
  db: Db,
  visitId: string,
  values: { notes?: string | null; health_flags?: HealthFlag[]; health_note?: string | null },
) {
  return db
    .updateTable("services")
    .set({ ...values, updated_at: new Date() })
    .where("id", "=", visitId)
    .returningAll()
    .executeTakeFirst();
}

export async function recordVisitEvent(
  db: Db,
  event: {
    visitId: string;
    actorId: string | null;
    kind: VisitEventKind;
    from?: VisitStatus | null;
    to?: VisitStatus | null;
    detail?: string | null;
  },
) {
  await db
    .insertInto("service_events")
    .values({
      service_id: event.visitId,
      actor_id: event.actorId,
      kind: event.kind,
      from_status: event.from ?? null,
      to_status: event.to ?? null,
      detail: event.detail?.slice(0, 1000) ?? null,
    })
    .execute();
}

export async function listVisitEvents(visitId: string, limit = 100) {
  const db = await getDb();
  return db
    .selectFrom("service_events")
    .leftJoin("users", "users.id", "service_events.actor_id")
    .leftJoin("profiles", "profiles.user_id", "service_events.actor_id")
    .select([
      "service_events.id",
      "service_events.kind",
      "service_events.from_status",
      "service_events.to_status",
      "service_events.detail",
      "service_events.created_at",
      "users.email as actor_email",
      "profiles.full_name as actor_name",
    ])
    .where("service_events.service_id", "=", visitId)
    .orderBy("service_events.created_at", "desc")
    .orderBy("service_events.id", "desc")
    .limit(limit)
    .execute();
}

/** The newest phone number the customer gave (on a quote request, matched by e-mail). */
export async function findCustomerPhone(email: string): Promise<string | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("quote_requests")
    .select("phone")
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .orderBy(sql`lower(email)`)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.phone ?? null;
}

/**
 * Visits still to happen (scheduled) on each business day from `from` until `until` (instants):
 * how full a day is when a sign-up looks for its first visit (docs/decisions/129).
 */
export async function countScheduledVisitsByDay(db: Db, from: Date, until: Date): Promise<Map<string, number>> {
  const day = sql<string>`to_char(service_date at time zone ${sql.lit(BUSINESS_TIME_ZONE)}, 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom("services")
    .select([day.as("day"), (eb) => eb.fn.countAll<string>().as("visits")])
    .where("status", "=", "scheduled")
    .where("service_date", ">=", from)
    .where("service_date", "<", until)
    .groupBy(day)
    .execute();
  return new Map(rows.map((row) => [row.day, Number(row.visits)]));
}
