import { visitMovedDetail } from "~/features/visits/visit-workflow.server";
import { lockProviderBooking, type Booking } from "~/models/booking.server";
import { findVisitByBookingId, moveVisitToBooking, recordVisitEvent, updateVisitStatus } from "~/models/visit.server";
import type { Db } from "~/utils/db.server";

/** The reason a visit's history gives when its booking was cancelled (issue 24, item 10). */
export const BOOKING_CANCELLED_REASON = "Booking cancelled";
const BOOKING_RESCHEDULED_REASON = "the booking was rescheduled";

export type VisitSync =
  { kind: "none" } | { kind: "cancelled"; visitId: string } | { kind: "moved"; visitId: string; fromBookingId: string };

/**
 * Makes a booking's scheduled visit agree with the booking as it is now stored (decision 046):
 * a cancelled booking cancels it, a booking that replaced another (a reschedule) takes the
 * other's visit to its own time. A visit that is no longer scheduled (completed, missed,
 * skipped, cancelled) is never touched. Runs in the caller's transaction after the booking's
 * change, and reads what is stored rather than what was delivered, so a replay or a late
 * delivery changes nothing the first one did not.
 */
export async function syncVisitWithBooking(
  trx: Db,
  booking: Booking,
  actorId: string | null,
  replaces: string | null = null,
): Promise<VisitSync> {
  const own = await findVisitByBookingId(booking.id, trx);
  // The booking this one replaced, when the calendar marked it rescheduled: its visit follows.
  const predecessorId = booking.rescheduled_from ?? replaces;
  const predecessor =
    !own && predecessorId && booking.provider ? await lockProviderBooking(trx, booking.provider, predecessorId) : null;
  const inherited =
    predecessor && predecessor.status === "rescheduled" ? await findVisitByBookingId(predecessor.id, trx) : null;
  const visit = own ?? inherited;
  if (!visit || visit.status !== "scheduled") return { kind: "none" };

  if (booking.status === "cancelled") {
    const cancelled = await updateVisitStatus(trx, visit.id, ["scheduled"], "cancelled");
    if (!cancelled) return { kind: "none" };
    await recordVisitEvent(trx, {
      visitId: visit.id,
      actorId,
      kind: "status",
      from: "scheduled",
      to: "cancelled",
      detail: BOOKING_CANCELLED_REASON,
    });
    return { kind: "cancelled", visitId: visit.id };
  }

  if (inherited && predecessor && (booking.status === "pending" || booking.status === "confirmed")) {
    const moved = await moveVisitToBooking(trx, visit.id, booking.id, booking.booking_date);
    if (!moved) return { kind: "none" };
    await recordVisitEvent(trx, {
      visitId: visit.id,
      actorId,
      kind: "rescheduled",
      from: "scheduled",
      to: "scheduled",
      detail: visitMovedDetail(visit.service_date, moved.service_date, BOOKING_RESCHEDULED_REASON),
    });
    return { kind: "moved", visitId: visit.id, fromBookingId: predecessor.id };
  }
  return { kind: "none" };
}
