import type { YardView } from "./yard-details";
import type { YardProfile } from "~/models/yard-profile.server";

/** The page's view of a profile, gate code included: call only for the customer or an admin. */
export function yardView(yard: YardProfile | null): YardView | null {
  if (!yard) return null;
  return {
    street: yard.street,
    city: yard.city,
    zip: yard.zip,
    gateCode: yard.gate_code,
    gateLocation: yard.gate_location,
    dogCount: yard.dog_count,
    dogNames: yard.dog_names,
    looseDog: yard.loose_dog,
    hazards: yard.hazards,
    accessNotes: yard.access_notes,
    notifyVisitEmails: yard.notify_visit_emails,
    mobilePhone: yard.mobile_phone,
    textVisits: yard.text_consent_at !== null && yard.mobile_phone !== null,
  };
}
