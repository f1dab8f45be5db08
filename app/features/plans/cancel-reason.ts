import { CANCEL_NOTE_MAX, CANCEL_REASONS, type CancelReason } from "./plan-constants";

/**
 * The optional answer of the cancel forms (decision 130): a reason of CANCEL_REASONS or none, and
 * a note. Nothing chosen is a fine answer; a value outside the list or a note too long is refused
 * with the form's message and nothing is cancelled.
 */
export function parseCancelAnswer(
  formData: FormData,
): { reason: CancelReason | null; reasonNote: string | null } | { error: string } {
  const rawReason = String(formData.get("cancelReason") ?? "").trim();
  const rawNote = String(formData.get("cancelNote") ?? "").trim();
  if (rawReason && !(CANCEL_REASONS as readonly string[]).includes(rawReason))
    return { error: "Choose one of the reasons given, or none." };
  if (rawNote.length > CANCEL_NOTE_MAX) return { error: `Keep the note to ${CANCEL_NOTE_MAX} characters.` };
  return { reason: (rawReason || null) as CancelReason | null, reasonNote: rawNote || null };
}
