import { json } from "@remix-run/node";
import { z } from "zod";
import type { AdminBookingItem } from "./admin-booking-list";
import { BOOKING_STATUSES, type BookingAction, type BookingStatus } from "./booking-constants";
import type { BookingFilter } from "./admin-bookings-url";
import type { ActionToastMessage } from "~/components/action-toast";
import { VISIT_TYPES } from "~/features/visits/visit-constants";
import {
  assignBookingCustomer,
  changeBookingStatus,
  findCustomerIdByEmail,
  getBookingById,
  listBookingsForAdmin,
  type AdminBooking,
} from "~/models/booking.server";
import { createVisit, findVisitByBookingId } from "~/models/visit.server";
import { formatBusinessDateTime } from "~/utils/business-time";
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
function present(row: AdminBooking): AdminBookingItem {
  const status = row.status;
  const actions: BookingAction[] = [];
  if (!row.customer_id) actions.push("assign");
  if (CONFIRMABLE.includes(status)) actions.push("confirm");
  if (row.customer_id && !row.visit_id && VISITABLE.includes(status)) actions.push("create-visit");
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
    visitCreated: Boolean(row.visit_id),
    actions,
  };
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
    return { rows: page.map(present), next: more, paged: url.searchParams.has(param) };
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
      if (!(await changeBookingStatus(booking.id, CANCELLABLE, "cancelled"))) {
        return refuse(409, "This booking can no longer be cancelled");
      }
      log.info("booking.cancelled", { bookingId: booking.id, adminId });
      return redirectWithSuccess(returnTo, { message: "Success", description: "Booking cancelled" });
    }
    case "create-visit": {
      const serviceType = VISIT_TYPES.find((type) => type === input.serviceType);
      if (!serviceType) return refuse(400, "Select one of the listed service types");
      if (!booking.customer_id) return refuse(409, "Assign a customer before creating the visit");
      if (!VISITABLE.includes(booking.status)) return refuse(409, "This booking is no longer active");
      if (await findVisitByBookingId(booking.id)) return refuse(409, "A visit was already created from this booking");
      try {
        const visit = await createVisit({
          customerId: booking.customer_id,
          serviceType,
          serviceDate: booking.booking_date,
          notes: null,
          createdBy: adminId,
          bookingId: booking.id,
        });
        log.info("booking.visit_created", { bookingId: booking.id, visitId: visit.id, adminId });
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
