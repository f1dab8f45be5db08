import type { BookingDelivery } from "./webhook-payloads.server";
import { readCustomerReference } from "./customer-reference.server";
import { serviceTypeForEventType } from "./booking-service-type.server";
import { syncVisitWithBooking, type VisitSync } from "./booking-visits.server";
import {
  findProviderBookingCustomer,
  lockProviderBooking,
  markProviderBookingRescheduled,
  upsertProviderBooking,
  type UpsertOutcome,
} from "~/models/booking.server";
import { isCustomer } from "~/models/user.server";
import { getDb, type Db } from "~/utils/db.server";

export type LinkedBy = "reference" | "reschedule" | "none";

/**
 * Who booked (docs/decisions/042, 045): the signed reference when it verifies and names a
 * customer; else the customer of the booking this one replaces; else nobody, and the admin
 * assigns one. The attendee's e-mail alone links nothing, verified or not: anyone can type any
 * address into the public calendar. It is only the admin's hint.
 */
export async function resolveCustomer(
  delivery: Pick<BookingDelivery, "provider" | "reference" | "replaces">,
  now = Date.now(),
  handle?: Db,
): Promise<{ customerId: string | null; linkedBy: LinkedBy }> {
  const referenced = readCustomerReference(delivery.reference, now);
  if (referenced) {
    // A signed reference may outlive its account (or name an admin since): it must still be a customer.
    if (await isCustomer(referenced, handle)) return { customerId: referenced, linkedBy: "reference" };
  }
  if (delivery.replaces) {
    const customerId = await findProviderBookingCustomer(delivery.provider, delivery.replaces, handle);
    if (customerId) return { customerId, linkedBy: "reschedule" };
  }
  return { customerId: null, linkedBy: "none" };
}

/**
 * Stores what one verified delivery says, then lets the booking's visit follow it (decision
 * 046), in one transaction. Each write is ordered by the calendar's own timestamp, so replays
 * and late deliveries change nothing (docs/decisions/043).
 */
export async function ingestBookingDelivery(
  delivery: BookingDelivery,
  now = Date.now(),
): Promise<{ outcome: UpsertOutcome; linkedBy: LinkedBy; replaced: boolean; visit: VisitSync["kind"] }> {
  const serviceType = await serviceTypeForEventType(delivery.eventTypeKeys);
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const { customerId, linkedBy } = await resolveCustomer(delivery, now, trx);
    const replaced = delivery.replaces
      ? Boolean(await markProviderBookingRescheduled(delivery.provider, delivery.replaces, delivery.eventAt, trx))
      : false;
    const outcome = await upsertProviderBooking(
      {
        provider: delivery.provider,
        externalId: delivery.externalId,
        status: delivery.status,
        serviceType,
        bookingDate: delivery.startsAt,
        endsAt: delivery.endsAt,
        attendeeEmail: delivery.attendeeEmail,
        eventType: delivery.eventType,
        customerId,
        rescheduledFrom: delivery.replaces,
        eventAt: delivery.eventAt,
      },
      trx,
    );
    // Even a stale delivery: the visit agrees with what is stored, whichever delivery wrote it.
    const stored = await lockProviderBooking(trx, delivery.provider, delivery.externalId);
    const visit = stored ? await syncVisitWithBooking(trx, stored, null, delivery.replaces) : { kind: "none" as const };
    return { outcome, linkedBy, replaced, visit: visit.kind };
  });
}
