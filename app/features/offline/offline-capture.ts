/**
 * Turns a form submitted without signal into a queued change (docs/decisions/127): "Mark
 * Completed", "Mark Missed" with its reason, the visit's notes, and a before/after photo. Any
 * other form of a staff page needs the server at once ("On my way" is a message to a customer
 * now, not later): it is held back with a word, so that the page is not lost to the browser's
 * offline error. Browser code only.
 */
import { OFFLINE_INTENTS, type OfflineIntentName } from "./offline-messages";
import type { QueuedChange, QueuedField } from "./offline-queue";
import { VISIT_ACTIONS } from "~/features/visits/visit-transitions";
import { isUuid } from "~/utils/uuid";

/** What the visit page says about itself (`OfflineVisitMarker`): its id, when it was read, its name. */
export type PageVisit = { visitId: string; seenAt: string; label: string };

const WHAT: Record<OfflineIntentName, string> = {
  complete: VISIT_ACTIONS.complete.label,
  miss: VISIT_ACTIONS.miss.label,
  notes: "Notes",
  photo: "Photo",
};

const VISIT_PAGE = /^\/admin-dashboard\/visits\/([^/]+)\/?$/;

const isOfflineIntent = (value: unknown): value is OfflineIntentName =>
  typeof value === "string" && (OFFLINE_INTENTS as readonly string[]).includes(value);

/**
 * The change a submitted form makes, or "needs-signal" for a form that cannot wait, or null for
 * one the queue leaves alone (a GET form, signing out).
 */
export function changeFromSubmit(
  form: HTMLFormElement,
  submitter: HTMLElement | null,
  userId: string,
  visit: PageVisit | null,
): QueuedChange | "needs-signal" | null {
  if (form.method.toLowerCase() !== "post") return null;
  const action = new URL(form.action, window.location.href);
  if (action.origin !== window.location.origin || action.pathname === "/logout") return null;
  const base = (visitId: string, intent: OfflineIntentName, fields: QueuedField[]): QueuedChange | "needs-signal" =>
    visit && visit.visitId === visitId && isUuid(visitId)
      ? {
          key: crypto.randomUUID(),
          userId,
          visitId,
          intent,
          seenAt: visit.seenAt,
          madeAt: Date.now(),
          label: `${WHAT[intent]}: ${visit.label}`,
          fields,
        }
      : "needs-signal";

  if (action.pathname === "/resources/media-upload") {
    const file = [...form.querySelectorAll<HTMLInputElement>("input[type=file]")].find((i) => i.files?.length);
    if (!file?.files?.[0]) return null; // The browser's own "select a file" (or the form's script) says so.
    const chosen = file.files[0];
    return base(action.searchParams.get("service") ?? "", "photo", [[file.name, chosen, chosen.name]]);
  }
  const page = VISIT_PAGE.exec(action.pathname);
  if (page) {
    const data = new FormData(form, submitter);
    const intent = data.get("intent");
    if (!isOfflineIntent(intent) || intent === "photo") return "needs-signal";
    const fields: QueuedField[] = [];
    for (const [name, value] of data) if (name !== "intent" && typeof value === "string") fields.push([name, value]);
    return base(page[1]!, intent, fields);
  }
  return "needs-signal";
}
