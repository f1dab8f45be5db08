import { json } from "@remix-run/node";
import { z } from "zod";
import type { AdminBookingItem } from "./admin-booking-list";
import { BOOKING_STATUSES, type BookingAction, type BookingStatus } from "./booking-constants";
import type { BookingFilter } from "./admin-bookings-url";
import type { ActionToastMessage } from "~/components/action-toast";
import { VISIT_TYPES } from "~/features/visits/visit-constants";
import { syncVisitWithBooking } from "./booking-visits.server";
import {
  assignBookingCustomer,
  bookingsWithVisitBefore,
  changeBookingStatus,
  findCustomerIdByEmail,
  findCustomersByEmails,
  getBookingById,
  listBookingsForAdmin,
  lockBooking,
  lockProviderBooking,
  type AdminBooking,
  type Booking,
  type EmailMatch,
} from "~/models/booking.server";
import { createVisit, findVisitByBookingId } from "~/models/visit.server";
import { formatBusinessDateTime } from "~/utils/business-time";
import { getDb, type Db } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { isUuid } from "~/utils/uuid";

export const BOOKINGS_PAGE_SIZE = 25;

/** The statuses a booking can still be confirmed from, cancelled from, or visited from. */
const CONFIRMABLE: readonly BookingStatus[] = ["pending"];
const CANCELLABLE: readonly BookingStatus[] = ["pending", "confirmed", "reschedule_requested"];
const VISITABLE: readonly BookingStatus[] = ["pending", "confirmed"];

/** `after` cursors are `<ISO time>_<uuid>`: the last row a section showed. */
function readCursor(value: string | null) {
  if (!value) return null;
  const [iso, id] = value.split("_");
  const bookingDate = new Date(iso ?? "");
  if (!isUuid(id) || Number.isNaN(bookingDate.getTime())) return null;
  return { bookingDate, id };
}
const cursorOf = (row: AdminBooking) => `${row.booking_date.toISOString()}_${row.id}`;

export function readBookingFilter(url: URL): { filter: BookingFilter; invalid: string | null } {
  const requested = url.searchParams.get("status") || null;
  const status = BOOKING_STATUSES.find((value) => value === requested) ?? null;
  const unmatched = url.searchParams.get("unmatched") === "1";
  return {
    filter: { status, unmatched },
    invalid: requested && !status ? `There is no status "${requested}". Showing all bookings.` : null,
  };
}

/**
 * One row as the page renders it, and no more: the loader's data travels twice (the HTML and
 * `__remixContext`), so the buttons a booking offers are one list, not four flags (decision 076).
 */
function present(row: AdminBooking, replacedVisited: Set<string>, matches: Map<string, EmailMatch>): AdminBookingItem {
  const status = row.status;
  const actions: BookingAction[] = [];
  if (!row.customer_id) actions.push("assign");
  if (CONFIRMABLE.includes(status)) actions.push("confirm");
  // A reschedule whose earlier booking has a visit: that visit is the booking's (decision 046).
  if (row.customer_id && !row.visit_id && VISITABLE.includes(status) && !replacedVisited.has(row.id)) {
    actions.push("create-visit");
  }
  if (CANCELLABLE.includes(status)) actions.push("cancel");
  return {
    id: row.id,
    when: formatBusinessDateTime(row.booking_date),
    startsAt: row.booking_date.toISOString(),
    serviceType: row.service_type,
    status,
    provider: row.provider,
    customer: row.customer_id ? { name: row.customer_name, email: row.customer_email } : null,
    attendeeEmail: row.attendee_email,
    emailMatch: row.customer_id ? null : matchOf(row, matches),
    visitCreated: Boolean(row.visit_id),
    actions,
  };
}

/** "Matches customer X by e-mail": a hint for the admin, never a link (decision 045). */
function matchOf(row: AdminBooking, matches: Map<string, EmailMatch>): AdminBookingItem["emailMatch"] {
  const match = row.attendee_email ? matches.get(row.attendee_email.trim().toLowerCase()) : undefined;
  return match ? { name: match.full_name || match.email, email: match.email, verified: match.verified } : null;
}

/** The page's rows with what their buttons and hints depend on: two small queries per section. */
async function presentPage(rows: AdminBooking[]) {
  const unmatchedEmails = rows.flatMap((row) => (!row.customer_id && row.attendee_email ? [row.attendee_email] : []));
  const [replacedVisited, found] = await Promise.all([
    bookingsWithVisitBefore(rows.filter((row) => row.rescheduled_from && !row.visit_id).map((row) => row.id)),
    findCustomersByEmails(unmatchedEmails),
  ]);
  const matches = new Map(found.map((match) => [match.email.toLowerCase(), match]));
  return rows.map((row) => present(row, replacedVisited, matches));
}

/** Both sections of the page, each one keyset page long. */
export async function loadAdminBookings(url: URL, now = new Date()) {
  const { filter, invalid } = readBookingFilter(url);
  const section = async (when: "upcoming" | "past", param: string) => {
    const rows = await listBookingsForAdmin({
      when,
      status: filter.status ?? undefined,
      unmatched: filter.unmatched,
      now,
      limit: BOOKINGS_PAGE_SIZE + 1,
      after: readCursor(url.searchParams.get(param)),
    });
    const page = rows.slice(0, BOOKINGS_PAGE_SIZE);
    const more = rows.length > BOOKINGS_PAGE_SIZE ? cursorOf(page[page.length - 1]) : null;
    return { rows: await presentPage(page), next: more, paged: url.searchParams.has(param) };
  };
  const [upcoming, past] = await Promise.all([section("upcoming", "upcoming_after"), section("past", "past_after")]);
  return { filter, invalid, upcoming, past };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("assign"), bookingId: z.string(), customerEmail: z.string().trim().max(320) }),
  z.object({ intent: z.literal("confirm"), bookingId: z.string() }),
  z.object({ intent: z.literal("cancel"), bookingId: z.string() }),
  z.object({ intent: z.literal("create-visit"), bookingId: z.string(), serviceType: z.string() }),
]);

const refuse = (status: number, description: string) =>
  json({ toast: { message: "Error", description } satisfies ActionToastMessage }, { status });

/** A form without JavaScript posts a few hundred bytes; far more is not ours. */
const MAX_FORM_BYTES = 16 * 1024;

/** The page's four buttons. Each answers a refusal with 400/404/409 and changes nothing. */
export async function handleAdminBookingAction(request: Request, adminId: string, returnTo: string) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return refuse(413, "The form was too large");
  }
  const form = await request.formData().catch(() => null);
  const parsed = actionSchema.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return refuse(400, "That action is not available");
  const input = parsed.data;

  const booking = await getBookingById(input.bookingId);
  if (!booking) return refuse(404, "Booking not found");

  switch (input.intent) {
    case "assign": {
      if (!input.customerEmail) return refuse(400, "Enter the customer's e-mail");
      const customerId = await findCustomerIdByEmail(input.customerEmail);
      if (!customerId) return refuse(400, "No customer has that e-mail");
      if (!(await assignBookingCustomer(booking.id, customerId))) {
        return refuse(409, "This booking already has a customer");
      }
      log.info("booking.assigned", { bookingId: booking.id, customerId, adminId });
      return redirectWithSuccess(returnTo, { message: "Success", description: "Customer assigned" });
    }
    case "confirm": {
      if (!(await changeBookingStatus(booking.id, CONFIRMABLE, "confirmed"))) {
        return refuse(409, "Only a pending booking can be confirmed");
      }
      log.info("booking.confirmed", { bookingId: booking.id, adminId });
      return redirectWithSuccess(returnTo, { message: "Success", description: "Booking confirmed" });
    }
    case "cancel": {
      const cancelled = await inBookingTransaction(booking, async (trx, locked) => {
        if (!(await changeBookingStatus(locked.id, CANCELLABLE, "cancelled", trx))) return null;
        // Its scheduled visit is cancelled with it (decision 046).
        return syncVisitWithBooking(trx, { ...locked, status: "cancelled" }, adminId);
      });
      if (!cancelled) return refuse(409, "This booking can no longer be cancelled");
      log.info("booking.cancelled", {
        bookingId: booking.id,
        adminId,
        ...(cancelled.kind === "cancelled" ? { visitId: cancelled.visitId } : {}),
      });
      return redirectWithSuccess(returnTo, { message: "Success", description: "Booking cancelled" });
    }
    case "create-visit": {
      const serviceType = VISIT_TYPES.find((type) => type === input.serviceType);
      if (!serviceType) return refuse(400, "Select one of the listed service types");
      if (!booking.customer_id) return refuse(409, "Assign a customer before creating the visit");
      try {
        const outcome = await inBookingTransaction(booking, async (trx, locked) => {
          // Read again under the lock: a calendar delivery may have cancelled or replaced it.
          if (!VISITABLE.includes(locked.status) || !locked.customer_id) return "inactive" as const;
          if (await findVisitByBookingId(locked.id, trx)) return "exists" as const;
          if ((await bookingsWithVisitBefore([locked.id], trx)).size > 0) return "replaced" as const;
          return createVisit(
            {
              customerId: locked.customer_id,
              serviceType,
              serviceDate: locked.booking_date,
              notes: null,
              createdBy: adminId,
              bookingId: locked.id,
            },
            trx,
          );
        });
        if (outcome === "inactive" || outcome === null) return refuse(409, "This booking is no longer active");
        if (outcome === "exists") return refuse(409, "A visit was already created from this booking");
        if (outcome === "replaced") return refuse(409, "The booking this one replaced already has a visit");
        log.info("booking.visit_created", { bookingId: booking.id, visitId: outcome.id, adminId });
        return redirectWithSuccess(returnTo, { message: "Success", description: "Visit created from booking" });
      } catch (error) {
        // Two presses at once: the unique services.booking_id lets exactly one insert through.
        if (await findVisitByBookingId(booking.id)) {
          return refuse(409, "A visit was already created from this booking");
        }
        log.error("booking.visit_create_failed", { bookingId: booking.id, ...errorFields(error) });
        return refuse(500, "Failed to create the visit");
      }
    }
  }
}

/**
 * One admin change of a booking, with the booking locked: a calendar delivery about it (which
 * locks the booking it replaces first, then its own) waits, or is waited for. The booking it
 * replaced is locked first here too, so the two never wait for each other. Null when the
 * booking is gone.
 */
async function inBookingTransaction<T>(
  booking: Booking,
  work: (trx: Db, locked: Booking) => Promise<T>,
): Promise<T | null> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    if (booking.provider && booking.rescheduled_from) {
      await lockProviderBooking(trx, booking.provider, booking.rescheduled_from);
    }
    const locked = await lockBooking(trx, booking.id);
    return locked ? work(trx, locked) : null;
  });
}
