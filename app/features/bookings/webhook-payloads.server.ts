import { z } from "zod";
import type { BookingProvider, BookingStatus } from "./booking-constants";

/**
 * The two calendars' documented webhook bodies, read into one shape. Only the fields we use
 * are checked; everything else the calendars send passes through untouched.
 *   Cal.com:  {triggerEvent, createdAt, payload: {uid, startTime, endTime, status, attendees,
 *              type, title, metadata, rescheduleUid, requestReschedule}}
 *   Calendly: {event, created_at, payload: {uri, email, status, rescheduled, old_invitee,
 *              tracking: {utm_content}, scheduled_event: {start_time, end_time, name, event_type}}}
 */

/** What one delivery says about one booking (a reschedule also names the booking it replaces). */
export type BookingDelivery = {
  provider: BookingProvider;
  event: string;
  externalId: string;
  status: BookingStatus;
  eventAt: Date;
  startsAt: Date;
  endsAt: Date | null;
  attendeeEmail: string | null;
  /** Keys to look up in the site settings' event type mapping, most specific first. */
  eventTypeKeys: string[];
  /** The event type as stored on the booking (Cal.com slug, Calendly event type URI or name). */
  eventType: string | null;
  /** The signed customer reference the calendar handed back, not yet verified. */
  reference: string | null;
  /** The provider id of the booking this one replaces (a reschedule). */
  replaces: string | null;
};

export type ParsedDelivery =
  | { kind: "booking"; delivery: BookingDelivery }
  | { kind: "ignored"; event: string; externalId: string | null }
  | { kind: "invalid"; event: string | null };

// PostgreSQL text cannot hold NUL: such a value is refused here, never passed on as a 500.
const storable = (value: string) => !value.includes("\u0000");
const id = z.string().trim().min(1).max(300).refine(storable);
const instant = z
  .string()
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()));
const email = z.string().trim().max(320).email().refine(storable);
const optionalEmail = z.unknown().transform((value) => (email.safeParse(value).success ? String(value).trim() : null));
const optionalText = z
  .unknown()
  .transform((value) => (typeof value === "string" && value.length <= 300 && storable(value) ? value : null));

const calComEnvelope = z.object({ triggerEvent: z.string().max(100), createdAt: instant, payload: z.unknown() });

const calComBooking = z.object({
  uid: id,
  startTime: instant,
  endTime: instant.nullish(),
  status: z.string().max(50).nullish(),
  type: optionalText,
  title: optionalText,
  attendees: z.array(z.object({ email: optionalEmail }).passthrough()).nullish(),
  metadata: z.record(z.unknown()).nullish(),
  rescheduleUid: id.nullish(),
  requestReschedule: z.boolean().nullish(),
});

const CAL_COM_BOOKING_EVENTS = [
  "BOOKING_CREATED",
  "BOOKING_REQUESTED",
  "BOOKING_RESCHEDULED",
  "BOOKING_CANCELLED",
  "BOOKING_REJECTED",
] as const;
type CalComBookingEvent = (typeof CAL_COM_BOOKING_EVENTS)[number];

function calComStatus(event: CalComBookingEvent, booking: z.infer<typeof calComBooking>): BookingStatus {
  switch (event) {
    case "BOOKING_REQUESTED":
      return "pending";
    case "BOOKING_CANCELLED":
      return booking.requestReschedule ? "reschedule_requested" : "cancelled";
    case "BOOKING_REJECTED":
      return "cancelled";
    case "BOOKING_CREATED":
    case "BOOKING_RESCHEDULED":
      return booking.status?.toUpperCase() === "PENDING" ? "pending" : "confirmed";
  }
}

export function parseCalComDelivery(body: unknown): ParsedDelivery {
  const envelope = calComEnvelope.safeParse(body);
  if (!envelope.success) return { kind: "invalid", event: null };
  const event = envelope.data.triggerEvent;
  const known = CAL_COM_BOOKING_EVENTS.find((name) => name === event);
  if (!known) {
    const uid = (envelope.data.payload as { uid?: unknown } | null)?.uid;
    return { kind: "ignored", event, externalId: typeof uid === "string" ? uid.slice(0, 100) : null };
  }
  const booking = calComBooking.safeParse(envelope.data.payload);
  if (!booking.success) return { kind: "invalid", event };
  const data = booking.data;
  const reference = data.metadata?.customer;
  return {
    kind: "booking",
    delivery: {
      provider: "cal_com",
      event,
      externalId: data.uid,
      status: calComStatus(known, data),
      eventAt: envelope.data.createdAt,
      startsAt: data.startTime,
      endsAt: data.endTime ?? null,
      attendeeEmail: data.attendees?.find((attendee) => attendee.email)?.email ?? null,
      eventTypeKeys: [data.type, data.title].filter((key): key is string => Boolean(key)),
      eventType: data.type,
      reference: typeof reference === "string" ? reference : null,
      replaces:
        known === "BOOKING_RESCHEDULED" && data.rescheduleUid !== data.uid ? (data.rescheduleUid ?? null) : null,
    },
  };
}

const calendlyEnvelope = z.object({ event: z.string().max(100), created_at: instant, payload: z.unknown() });

const calendlyInvitee = z.object({
  uri: id,
  email: optionalEmail,
  rescheduled: z.boolean().nullish(),
  old_invitee: id.nullish(),
  tracking: z.object({ utm_content: z.string().nullish() }).passthrough().nullish(),
  scheduled_event: z
    .object({
      start_time: instant,
      end_time: instant.nullish(),
      name: optionalText,
      event_type: optionalText,
    })
    .passthrough(),
});

export function parseCalendlyDelivery(body: unknown): ParsedDelivery {
  const envelope = calendlyEnvelope.safeParse(body);
  if (!envelope.success) return { kind: "invalid", event: null };
  const event = envelope.data.event;
  if (event !== "invitee.created" && event !== "invitee.canceled") {
    const uri = (envelope.data.payload as { uri?: unknown } | null)?.uri;
    return { kind: "ignored", event, externalId: typeof uri === "string" ? uri.slice(0, 100) : null };
  }
  const invitee = calendlyInvitee.safeParse(envelope.data.payload);
  if (!invitee.success) return { kind: "invalid", event };
  const data = invitee.data;
  const scheduled = data.scheduled_event;
  const status: BookingStatus =
    event === "invitee.created" ? "confirmed" : data.rescheduled ? "rescheduled" : "cancelled";
  return {
    kind: "booking",
    delivery: {
      provider: "calendly",
      event,
      externalId: data.uri,
      status,
      eventAt: envelope.data.created_at,
      startsAt: scheduled.start_time,
      endsAt: scheduled.end_time ?? null,
      attendeeEmail: data.email,
      eventTypeKeys: [scheduled.event_type, scheduled.name].filter((key): key is string => Boolean(key)),
      eventType: scheduled.event_type ?? scheduled.name,
      reference: data.tracking?.utm_content ?? null,
      replaces: event === "invitee.created" && data.old_invitee !== data.uri ? (data.old_invitee ?? null) : null,
    },
  };
}
