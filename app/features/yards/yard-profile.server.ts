import { parseWithZod } from "@conform-to/zod";
import { YARD_MESSAGES, yardSchema } from "./yard-schema";
import { toMobileE164 } from "~/features/notices/mobile-number.server";
import { getYardProfile, saveYardProfile } from "~/models/yard-profile.server";
import { log } from "~/utils/logger.server";

const MAX_FORM_BYTES = 32 * 1024;

/**
 * Saves a yard profile from its form. The gate code is written to the database and nowhere
 * else: the log line names the user and who saved, never a field's value (docs/decisions/032).
 */
export async function saveYardFromForm(request: Request, userId: string, savedBy: string) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return { ok: false as const, status: 413, lastResult: null };
  }
  const formData = await request.formData().catch(() => null);
  if (!formData) return { ok: false as const, status: 400, lastResult: null };
  const submission = parseWithZod(formData, { schema: yardSchema });
  if (submission.status !== "success") {
    // The reply keeps what was typed except the gate code, which is never sent back in a 400.
    return { ok: false as const, status: 400, lastResult: submission.reply({ hideFields: ["gateCode"] }) };
  }
  const v = submission.value;
  // The mobile number and the consent to texts are the customer's own: an admin's save of the
  // profile leaves them as they are (the admin's form does not show them).
  let texts: { mobile_phone: string | null; text_consent_at: Date | null } | undefined;
  if (savedBy === userId) {
    const mobile = v.mobilePhone ? toMobileE164(v.mobilePhone) : null;
    const error =
      v.mobilePhone && !mobile
        ? YARD_MESSAGES.mobilePhone
        : v.textVisits === "on" && !mobile
          ? YARD_MESSAGES.textsNeedNumber
          : null;
    if (error) {
      return {
        ok: false as const,
        status: 400,
        lastResult: submission.reply({ fieldErrors: { mobilePhone: [error] }, hideFields: ["gateCode"] }),
      };
    }
    const before = await getYardProfile(userId);
    // Consent is kept with its first time while the number stays the same (the carriers ask
    // when it was given); a new number, or the box ticked again, is a new consent.
    const kept = before?.text_consent_at && before.mobile_phone === mobile ? before.text_consent_at : null;
    texts = { mobile_phone: mobile, text_consent_at: v.textVisits === "on" && mobile ? (kept ?? new Date()) : null };
  }
  await saveYardProfile(userId, {
    ...texts,
    street: v.street || null,
    city: v.city || null,
    zip: v.zip || null,
    gate_code: v.gateCode || null,
    gate_location: v.gateLocation || null,
    dog_count: v.dogCount,
    dog_names: v.dogNames || null,
    loose_dog: v.looseDog === "on",
    hazards: v.hazards || null,
    access_notes: v.accessNotes || null,
    notify_visit_emails: v.notifyVisitEmails === "on",
  });
  log.info("yard.saved", { userId, savedBy });
  return { ok: true as const, status: 200, lastResult: submission.reply() };
}
