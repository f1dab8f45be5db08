import { parseWithZod } from "@conform-to/zod";
import { yardLocationSchema } from "./yard-location-schema";
import { setYardLocation, type YardProfile } from "~/models/yard-profile.server";
import { log } from "~/utils/logger.server";

/** The "Yard location" form's intent, on the admin's visit page and customer page. */
export const YARD_LOCATION_INTENT = "yard-location";

/** What the admin's pages show of a yard's location; never given to a customer's page. */
export function yardLocationView(yard: YardProfile | null) {
  if (!yard || yard.latitude === null || yard.longitude === null) return null;
  return { latitude: yard.latitude, longitude: yard.longitude };
}

/** Saves the coordinates an admin typed or their browser sent; nothing stored when refused. */
export async function saveYardLocationFromForm(formData: FormData, customerId: string, adminId: string) {
  const submission = parseWithZod(formData, { schema: yardLocationSchema });
  if (submission.status !== "success") return { ok: false as const, lastResult: submission.reply() };
  await setYardLocation(customerId, submission.value);
  // Who and whose yard, not where: a location is personal data (decision 032's rule for logs).
  log.info("yard.location_saved", { userId: customerId, savedBy: adminId });
  return { ok: true as const, lastResult: submission.reply({ resetForm: true }) };
}

/**
 * A visit completed with the browser's location (the complete form's optional fields): the yard
 * gets it if it has none yet. Missing or out-of-range coordinates are ignored; completing the
 * visit never depends on them.
 */
export async function recordLocationAtCompletion(formData: FormData, customerId: string) {
  if (!formData.get("latitude") || !formData.get("longitude")) return;
  const submission = parseWithZod(formData, { schema: yardLocationSchema });
  if (submission.status !== "success") return;
  const written = await setYardLocation(customerId, submission.value, { onlyIfNone: true });
  if (written) log.info("yard.location_saved", { userId: customerId, savedBy: "visit_completed" });
}
