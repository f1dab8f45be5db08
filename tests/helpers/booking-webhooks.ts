import { readFileSync } from "node:fs";
import path from "node:path";
import { signCalCom, signCalendly } from "~/features/bookings/webhook-signatures.server";

/** The webhook fixtures (tests/fixtures/webhooks), in the providers' documented shapes. */
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/webhooks");

export const CAL_COM_SECRET = "cal-com-test-secret-0123456789";
export const CALENDLY_KEY = "calendly-test-signing-key-0123456789";

type Json = Record<string, any>;

export function fixture(name: string): Json {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8"));
}

/** A Cal.com delivery from a fixture, with its envelope and payload fields changed. */
export function calComBody(name: string, envelope: Json = {}, payload: Json = {}): Json {
  const body = fixture(name);
  return { ...body, ...envelope, payload: { ...body.payload, ...payload } };
}

/** A Calendly delivery from a fixture, with its envelope, invitee and scheduled event changed. */
export function calendlyBody(name: string, envelope: Json = {}, invitee: Json = {}, scheduledEvent: Json = {}): Json {
  const body = fixture(name);
  return {
    ...body,
    ...envelope,
    payload: { ...body.payload, ...invitee, scheduled_event: { ...body.payload.scheduled_event, ...scheduledEvent } },
  };
}

export function calComRequest(body: Json | string | Uint8Array, signature: string | null = "sign") {
  const raw = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature === "sign") headers["X-Cal-Signature-256"] = signCalCom(raw, CAL_COM_SECRET);
  else if (signature !== null) headers["X-Cal-Signature-256"] = signature;
  return { body: raw as BodyInit, headers };
}

export function calendlyRequest(body: Json | string | Uint8Array, signature: string | null = "sign", now = Date.now()) {
  const raw = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature === "sign") headers["Calendly-Webhook-Signature"] = signCalendly(raw, CALENDLY_KEY, now);
  else if (signature !== null) headers["Calendly-Webhook-Signature"] = signature;
  return { body: raw as BodyInit, headers };
}

/** A random provider id, so that each test's bookings are its own. */
export const uid = (label = "b") => `${label}${Math.random().toString(36).slice(2, 12)}`;
