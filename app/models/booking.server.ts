import { sql, type Selectable } from "kysely";
import type { BookingProvider, BookingStatus, BookingsTable } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";
import { isNotStaff } from "./user-roles.server";
import { isUuid } from "~/utils/uuid";

export type Booking = Selectable<BookingsTable>;

/**
 * SPEC 6/9: the customer's "Upcoming Bookings": their own bookings from `from` on (the start of
 * today in the business's time zone), soonest first, at most `limit` (decision 047; the spec's
 * literal query listed the latest booking dates first, past ones included). Served by
 * bookings (customer_id, booking_date desc), read backwards.
 */
export async function listUpcomingBookingsForCustomer(customerId: string, from: Date, limit = 5): Promise<Booking[]> {
  const db = await getDb();
  return db
    .selectFrom("bookings")
    .selectAll()
    .where("customer_id", "=", customerId)
    .where("booking_date", ">=", from)
    .orderBy("booking_date")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** The admin's customer page: a customer's latest bookings, by booking date descending. */
export async function listRecentBookingsForCustomer(customerId: string, limit = 5): Promise<Booking[]> {
  const db = await getDb();
  return db
    .selectFrom("bookings")
    .selectAll()
    .where("customer_id", "=", customerId)
    .orderBy("booking_date", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Bookings written by the calendars' webhooks (app/features/bookings/booking-ingest.server.ts).

export type ProviderBookingInput = {
  provider: BookingProvider;
  externalId: string;
  status: BookingStatus;
  serviceType: string;
  bookingDate: Date;
  endsAt: Date | null;
  attendeeEmail: string | null;
  eventType: string | null;
  customerId: string | null;
  rescheduledFrom: string | null;
  /** The time the calendar stamped on the delivery: only a newer delivery changes a row. */
  eventAt: Date;
};

export type UpsertOutcome = "created" | "updated" | "stale";

/**
 * One atomic statement per delivery: insert, or update when this delivery is newer than the
 * last one applied. A replay (same time) or a late, older delivery changes nothing. A customer
 * once linked (by reference, e-mail or the admin) stays linked.
 */
export async function upsertProviderBooking(input: ProviderBookingInput, handle?: Db): Promise<UpsertOutcome> {
  const db = handle ?? (await getDb());
  const row = await db
    .insertInto("bookings")
    .values({
      provider: input.provider,
      external_id: input.externalId,
      status: input.status,
      service_type: input.serviceType,
      booking_date: input.bookingDate,
      ends_at: input.endsAt,
      attendee_email: input.attendeeEmail,
      event_type: input.eventType,
      customer_id: input.customerId,
      rescheduled_from: input.rescheduledFrom,
      source: "calendar",
      provider_event_at: input.eventAt,
    })
    .onConflict((oc) =>
      oc
        .columns(["provider", "external_id"])
        .doUpdateSet((eb) => ({
          status: eb.ref("excluded.status"),
          service_type: eb.ref("excluded.service_type"),
          booking_date: eb.ref("excluded.booking_date"),
          ends_at: eb.ref("excluded.ends_at"),
          attendee_email: eb.fn.coalesce("excluded.attendee_email", "bookings.attendee_email"),
          event_type: eb.fn.coalesce("excluded.event_type", "bookings.event_type"),
          customer_id: eb.fn.coalesce("bookings.customer_id", "excluded.customer_id"),
          rescheduled_from: eb.fn.coalesce("bookings.rescheduled_from", "excluded.rescheduled_from"),
          provider_event_at: eb.ref("excluded.provider_event_at"),
          updated_at: sql`now()`,
        }))
        .where((eb) =>
          eb.or([
            eb("bookings.provider_event_at", "is", null),
            eb("bookings.provider_event_at", "<", eb.ref("excluded.provider_event_at")),
          ]),
        ),
    )
    .returning(sql<boolean>`(xmax = 0)`.as("inserted"))
    .executeTakeFirst();
  if (!row) return "stale";
  return row.inserted ? "created" : "updated";
}

/**
 * The old booking of a reschedule becomes "rescheduled", unless a newer delivery already
 * said something else about it. A missing old booking is fine (it may never have reached us).
 */
export async function markProviderBookingRescheduled(
  provider: BookingProvider,
  externalId: string,
  eventAt: Date,
  handle?: Db,
): Promise<{ customerId: string | null } | null> {
  const db = handle ?? (await getDb());
  const row = await db
    .updateTable("bookings")
    .set({ status: "rescheduled", provider_event_at: eventAt, updated_at: sql`now()` })
    .where("provider", "=", provider)
    .where("external_id", "=", externalId)
    .where((eb) => eb.or([eb("provider_event_at", "is", null), eb("provider_event_at", "<", eventAt)]))
    .returning("customer_id")
    .executeTakeFirst();
  return row ? { customerId: row.customer_id } : null;
}

/** The customer an earlier booking of the calendar was linked to (a reschedule inherits it). */
export async function findProviderBookingCustomer(provider: BookingProvider, externalId: string, handle?: Db) {
  const db = handle ?? (await getDb());
  const row = await db
    .selectFrom("bookings")
    .select("customer_id")
    .where("provider", "=", provider)
    .where("external_id", "=", externalId)
    .executeTakeFirst();
  return row?.customer_id ?? null;
}

/** The customer with this e-mail, whatever its case. */
export async function findCustomerIdByEmail(email: string): Promise<string | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .select("users.id")
    .where(sql<string>`lower(users.email)`, "=", email.trim().toLowerCase())
    .where(isNotStaff)
    .executeTakeFirst();
  return row?.id ?? null;
}

export type EmailMatch = { id: string; email: string; full_name: string | null; verified: boolean };

/**
 * The customers whose e-mail is one of these, whatever its case: the admin's hint beside an
 * unmatched booking ("Matches customer X by e-mail"), never a link by itself (decision 045).
 * At most a page of addresses, each served by users_email_lower_key.
 */
export async function findCustomersByEmails(emails: string[]): Promise<EmailMatch[]> {
  const wanted = [...new Set(emails.map((email) => email.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return [];
  const db = await getDb();
  const rows = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.email_verified_at"])
    .where(sql<string>`lower(users.email)`, "in", wanted)
    .where(isNotStaff)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    verified: row.email_verified_at !== null,
  }));
}

// ---------------------------------------------------------------------------------------------
// The admin's Bookings page.

export type AdminBooking = Booking & {
  customer_email: string | null;
  customer_name: string | null;
  visit_id: string | null;
};

export type AdminBookingFilter = {
  when: "upcoming" | "past";
  status?: BookingStatus;
  unmatched?: boolean;
  now: Date;
  limit: number;
  /** Keyset paging: the last row of the previous page. */
  after?: { bookingDate: Date; id: string } | null;
};

/**
 * Upcoming soonest first, past latest first; keyset paging on (booking_date, id). The page's
 * bookings are chosen and limited first and only they are joined to their customer and visit
 * (decision 077): joined before the limit, PostgreSQL sized Memoize caches for every upcoming
 * booking (400,000 at full size) and the query took 5 ms instead of 1.
 */
export async function listBookingsForAdmin(filter: AdminBookingFilter): Promise<AdminBooking[]> {
  const db = await getDb();
  const upcoming = filter.when === "upcoming";
  const direction = upcoming ? "asc" : "desc";
  let page = db
    .selectFrom("bookings")
    .selectAll()
    .where("booking_date", upcoming ? ">=" : "<", filter.now);
  if (filter.status) page = page.where("status", "=", filter.status);
  if (filter.unmatched) page = page.where("customer_id", "is", null);
  if (filter.after) {
    const { bookingDate, id } = filter.after;
    page = page.where((eb) => eb(eb.refTuple("booking_date", "id"), upcoming ? ">" : "<", eb.tuple(bookingDate, id)));
  }
  return db
    .selectFrom(page.orderBy("booking_date", direction).orderBy("id", direction).limit(filter.limit).as("bookings"))
    .leftJoin("users", "users.id", "bookings.customer_id")
    .leftJoin("profiles", "profiles.user_id", "bookings.customer_id")
    .leftJoin("services", "services.booking_id", "bookings.id")
    .selectAll("bookings")
    .select(["users.email as customer_email", "profiles.full_name as customer_name", "services.id as visit_id"])
    .orderBy("bookings.booking_date", direction)
    .orderBy("bookings.id", direction)
    .execute();
}

export async function getBookingById(bookingId: string): Promise<Booking | null> {
  if (!isUuid(bookingId)) return null;
  const db = await getDb();
  return (await db.selectFrom("bookings").selectAll().where("id", "=", bookingId).executeTakeFirst()) ?? null;
}

/**
 * A booking read inside a transaction and locked until it ends, so that a calendar delivery
 * and an admin's button on the same booking take turns (decision 046).
 */
export async function lockBooking(trx: Db, bookingId: string): Promise<Booking | null> {
  if (!isUuid(bookingId)) return null;
  return (
    (await trx.selectFrom("bookings").selectAll().where("id", "=", bookingId).forUpdate().executeTakeFirst()) ?? null
  );
}

/** A calendar's booking by its provider id, locked until the transaction ends. */
export async function lockProviderBooking(
  trx: Db,
  provider: BookingProvider,
  externalId: string,
): Promise<Booking | null> {
  return (
    (await trx
      .selectFrom("bookings")
      .selectAll()
      .where("provider", "=", provider)
      .where("external_id", "=", externalId)
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}

/** A reschedule chain is short; a longer one (or a loop) is not followed past this. */
const MAX_RESCHEDULES = 20;

/**
 * Which of these bookings replaced (through one reschedule or several) a booking that has a
 * visit: such a booking never offers "Create Visit" (decision 046). One recursive walk back
 * along `rescheduled_from` for a page of bookings.
 */
export async function bookingsWithVisitBefore(bookingIds: string[], handle?: Db): Promise<Set<string>> {
  const ids = bookingIds.filter(isUuid);
  if (ids.length === 0) return new Set();
  const db = handle ?? (await getDb());
  const result = await sql<{ origin: string }>`
    with recursive chain (origin, predecessor, provider, replaces, depth) as (
      select b.id, p.id, p.provider, p.rescheduled_from, 1
        from bookings b
        join bookings p on p.provider = b.provider and p.external_id = b.rescheduled_from
       where b.id in (${sql.join(ids)})
      union all
      select c.origin, p.id, p.provider, p.rescheduled_from, c.depth + 1
        from chain c
        join bookings p on p.provider = c.provider and p.external_id = c.replaces
       where c.depth < ${MAX_RESCHEDULES}
    )
    select distinct chain.origin from chain join services s on s.booking_id = chain.predecessor`.execute(db);
  return new Set(result.rows.map((row) => row.origin));
}

/** Links an unlinked booking; false when it is gone or already linked (nobody is overwritten). */
export async function assignBookingCustomer(bookingId: string, customerId: string): Promise<boolean> {
  const db = await getDb();
  const result = await db
    .updateTable("bookings")
    .set({ customer_id: customerId, updated_at: sql`now()` })
    .where("id", "=", bookingId)
    .where("customer_id", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Moves a booking from one of `from` to `to`; false when it is in none of them. */
export async function changeBookingStatus(
  bookingId: string,
  from: readonly BookingStatus[],
  to: BookingStatus,
  handle?: Db,
): Promise<boolean> {
  const db = handle ?? (await getDb());
  const result = await db
    .updateTable("bookings")
    .set({ status: to, updated_at: sql`now()` })
    .where("id", "=", bookingId)
    .where("status", "in", [...from])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
