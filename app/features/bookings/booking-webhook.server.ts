import { json } from "@remix-run/node";
import type { BookingProvider } from "./booking-constants";
import { ingestBookingDelivery } from "./booking-ingest.server";
import {
  CAL_COM_SIGNATURE_HEADER,
  CALENDLY_SIGNATURE_HEADER,
  verifyCalComSignature,
  verifyCalendlySignature,
} from "./webhook-signatures.server";
import { parseCalComDelivery, parseCalendlyDelivery, type ParsedDelivery } from "./webhook-payloads.server";
import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { BodyTooLargeError, readBodyWithLimit } from "~/utils/read-body-with-limit.server";

/** A booking webhook is a few kilobytes; the calendars never send anything near this. */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

type Receiver = {
  provider: BookingProvider;
  secret: () => string | undefined;
  verify: (raw: Uint8Array, request: Request, secret: string) => boolean;
  parse: (body: unknown) => ParsedDelivery;
};

const RECEIVERS: Record<BookingProvider, Receiver> = {
  cal_com: {
    provider: "cal_com",
    secret: () => getEnv().CAL_COM_WEBHOOK_SECRET,
    verify: (raw, request, secret) => verifyCalComSignature(raw, request.headers.get(CAL_COM_SIGNATURE_HEADER), secret),
    parse: parseCalComDelivery,
  },
  calendly: {
    provider: "calendly",
    secret: () => getEnv().CALENDLY_WEBHOOK_SIGNING_KEY,
    verify: (raw, request, secret) =>
      verifyCalendlySignature(raw, request.headers.get(CALENDLY_SIGNATURE_HEADER), secret).ok,
    parse: parseCalendlyDelivery,
  },
};

const noStore = { "Cache-Control": "no-store" };

/**
 * One calendar delivery, start to end: bounded raw read, signature over the raw bytes, then
 * parse, then store. Every outcome is one log line with ids only (no e-mail, no names).
 * A bad delivery gets 4xx (401 signature, 400 body, 413 size); only our own failure is 5xx,
 * so the calendar retries it.
 */
export async function receiveBookingWebhook(request: Request, provider: BookingProvider): Promise<Response> {
  const receiver = RECEIVERS[provider];
  const secret = receiver.secret();
  // Not configured: the endpoint does not exist for this deployment.
  if (!secret) return json({ message: "Not Found" }, { status: 404, headers: noStore });

  const record = (httpStatus: number, outcome: string, fields: Record<string, unknown> = {}) => {
    const line = { provider, outcome, httpStatus, ...fields };
    if (httpStatus >= 500) log.error("booking_webhook.delivery", line);
    else if (httpStatus >= 400) log.warn("booking_webhook.delivery", line);
    else log.info("booking_webhook.delivery", line);
  };

  let raw: Uint8Array;
  try {
    raw = await readBodyWithLimit(request, WEBHOOK_BODY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      record(413, "too_large");
      return json({ message: "Payload Too Large" }, { status: 413, headers: noStore });
    }
    record(400, "unreadable_body");
    return json({ message: "Bad Request" }, { status: 400, headers: noStore });
  }

  if (!receiver.verify(raw, request, secret)) {
    record(401, "bad_signature");
    return json({ message: "Invalid signature" }, { status: 401, headers: noStore });
  }

  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    record(400, "invalid_json");
    return json({ message: "Bad Request" }, { status: 400, headers: noStore });
  }

  const parsed = receiver.parse(body);
  if (parsed.kind === "invalid") {
    record(400, "invalid_payload", { trigger: parsed.event });
    return json({ message: "Bad Request" }, { status: 400, headers: noStore });
  }
  if (parsed.kind === "ignored") {
    record(200, "ignored", { trigger: parsed.event, externalId: parsed.externalId });
    return json({ received: true, outcome: "ignored" }, { headers: noStore });
  }

  const { delivery } = parsed;
  try {
    const result = await ingestBookingDelivery(delivery);
    record(200, result.outcome, {
      trigger: delivery.event,
      externalId: delivery.externalId,
      bookingStatus: delivery.status,
      linkedBy: result.linkedBy,
      ...(result.visit !== "none" ? { visit: result.visit } : {}),
      ...(delivery.replaces ? { replaces: delivery.replaces, replacedFound: result.replaced } : {}),
    });
    return json({ received: true, outcome: result.outcome }, { headers: noStore });
  } catch (error) {
    record(500, "failed", { trigger: delivery.event, externalId: delivery.externalId, ...errorFields(error) });
    return json({ message: "Internal Server Error" }, { status: 500, headers: noStore });
  }
}
