import type { BookingDelivery } from "./webhook-payloads.server";
import { readCustomerReference } from "./customer-reference.server";
import { serviceTypeForEventType } from "./booking-service-type.server";
import {
  findCustomerIdById,
  findCustomerIdByVerifiedEmail,
  findProviderBookingCustomer,
  markProviderBookingRescheduled,
  upsertProviderBooking,
  type UpsertOutcome,
} from "~/models/booking.server";

export type LinkedBy = "reference" | "reschedule" | "verified_email" | "none";

/**
 * Who booked (docs/decisions/042): the signed reference when it verifies and names a customer;
 * else the customer of the booking this one replaces; else a customer whose e-mail is verified;
 * else nobody, and the admin assigns one.
 */
export async function resolveCustomer(
  delivery: Pick<BookingDelivery, "provider" | "reference" | "replaces" | "attendeeEmail">,
  now = Date.now(),
): Promise<{ customerId: string | null; linkedBy: LinkedBy }> {
  const referenced = readCustomerReference(delivery.reference, now);
  if (referenced) {
    const customerId = await findCustomerIdById(referenced);
    if (customerId) return { customerId, linkedBy: "reference" };
  }
  if (delivery.replaces) {
    const customerId = await findProviderBookingCustomer(delivery.provider, delivery.replaces);
    if (customerId) return { customerId, linkedBy: "reschedule" };
  }
  if (delivery.attendeeEmail) {
    const customerId = await findCustomerIdByVerifiedEmail(delivery.attendeeEmail);
    if (customerId) return { customerId, linkedBy: "verified_email" };
  }
  return { customerId: null, linkedBy: "none" };
}

/**
 * Stores what one verified delivery says. Each statement is atomic and ordered by the
 * calendar's own timestamp, so replays and late deliveries change nothing (docs/decisions/043).
 */
export async function ingestBookingDelivery(
  delivery: BookingDelivery,
  now = Date.now(),
): Promise<{ outcome: UpsertOutcome; linkedBy: LinkedBy; replaced: boolean }> {
  const { customerId, linkedBy } = await resolveCustomer(delivery, now);
  const replaced = delivery.replaces
    ? Boolean(await markProviderBookingRescheduled(delivery.provider, delivery.replaces, delivery.eventAt))
    : false;
  const outcome = await upsertProviderBooking({
    provider: delivery.provider,
    externalId: delivery.externalId,
    status: delivery.status,
    serviceType: await serviceTypeForEventType(delivery.eventTypeKeys),
    bookingDate: delivery.startsAt,
    endsAt: delivery.endsAt,
    attendeeEmail: delivery.attendeeEmail,
    eventType: delivery.eventType,
    customerId,
    rescheduledFrom: delivery.replaces,
    eventAt: delivery.eventAt,
  });
  return { outcome, linkedBy, replaced };
}
