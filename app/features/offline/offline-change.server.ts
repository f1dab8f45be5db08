import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { OFFLINE_INTENTS, OFFLINE_MESSAGES, type OfflineAnswer, type OfflineIntentName } from "./offline-messages";
import type { RequestContext } from "~/features/accounts/auth.server";
import { discardRequestBody, uploadMedia } from "~/features/media/upload-media.server";
import { requireVisitInReach, type StaffUser } from "~/features/staff/staff-access.server";
import { VISIT_TOASTS } from "~/features/visits/visit-transitions";
import { missSchema, notesSchema } from "~/features/visits/visit-schemas";
import { applyVisitAction, saveVisitNotes, type InTransaction } from "~/features/visits/visit-workflow.server";
import { recordLocationAtCompletion } from "~/features/yards/yard-location.server";
import {
  findOfflineChange,
  recordOfflineChange,
  visitChangedByOthersSince,
  type AppliedOfflineChange,
} from "~/models/offline-change.server";
import { getVisit } from "~/models/visit.server";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { isUuid } from "~/utils/uuid";

const MAX_FORM_BYTES = 64 * 1024;

type Change = { user: StaffUser; key: string; visitId: string; intent: OfflineIntentName; seenAt: Date };

const answer = (status: number, body: OfflineAnswer) =>
  json(body, { status, headers: { "Cache-Control": "no-store" } });

const applied = (change: AppliedOfflineChange, replayed = false) =>
  json({ outcome: "applied", message: change.message, replayed } satisfies OfflineAnswer & { replayed: boolean }, {
    status: change.status,
    headers: { "Cache-Control": "no-store" },
  });

/**
 * A refusal of requireVisitInReach is a redirect, for pages; the queue's fetch wants to know
 * whether to keep the change (signed out: sign in and it is sent) or drop it (refused).
 */
function asAnswer(refusal: Response) {
  const location = refusal.headers.get("Location") ?? "";
  if (/^\/auth(\?|$)/.test(location)) return answer(401, { outcome: "sign-in", message: OFFLINE_MESSAGES.signIn });
  return answer(403, { outcome: "refused", message: OFFLINE_MESSAGES.refused });
}

/**
 * POST /resources/offline-change?service=<visit>&intent=<…>&key=<uuid>&seen=<ISO time>: one
 * change the phone queued while offline (docs/decisions/127). Checked as if it were made now,
 * with the session of the send: the staff member may still work the visit, the visit is still
 * in a state the change applies to, and nobody else changed it since the page was read
 * (`seen`), else a conflict. An applied change is stored under its key in the change's own
 * transaction; the same key again gets the stored answer and changes nothing.
 */
export async function handleOfflineChange(request: Request, context: RequestContext): Promise<Response> {
  const url = new URL(request.url);
  const visitId = url.searchParams.get("service") ?? "";
  let user: StaffUser;
  try {
    user = await requireVisitInReach(request, context, visitId);
  } catch (refusal) {
    await discardRequestBody(request);
    if (refusal instanceof Response && refusal.status >= 300 && refusal.status < 400) return asAnswer(refusal);
    throw refusal;
  }
  const key = url.searchParams.get("key") ?? "";
  const intent = url.searchParams.get("intent") ?? "";
  const seenAt = new Date(url.searchParams.get("seen") ?? "");
  if (!isUuid(key) || !isOfflineIntent(intent) || Number.isNaN(seenAt.getTime())) {
    await discardRequestBody(request);
    return answer(400, { outcome: "invalid", message: OFFLINE_MESSAGES.invalid });
  }
  const change: Change = { user, key, visitId, intent, seenAt };

  const stored = await findOfflineChange(user.id, key);
  if (stored) {
    await discardRequestBody(request);
    log.info("offline.replayed", { visitId, intent, userId: user.id });
    return applied(stored, true);
  }
  // A photo never contradicts what the office did: it is kept whatever the visit's state.
  if (intent !== "photo" && (await visitChangedByOthersSince(visitId, user.id, seenAt))) {
    await discardRequestBody(request);
    log.info("offline.conflict", { visitId, intent, userId: user.id });
    return answer(409, { outcome: "conflict", message: OFFLINE_MESSAGES.conflict });
  }
  return intent === "photo" ? sendPhoto(request, change, url) : sendFormChange(request, change);
}

function isOfflineIntent(intent: string): intent is OfflineIntentName {
  return (OFFLINE_INTENTS as readonly string[]).includes(intent);
}

/** Stores the key with the answer, in the transaction of the change it answers. */
const keeping =
  (change: Change, result: AppliedOfflineChange): InTransaction =>
  (trx) =>
    recordOfflineChange(trx, {
      userId: change.user.id,
      key: change.key,
      visitId: change.visitId,
      intent: change.intent,
      ...result,
    });

async function sendFormChange(request: Request, change: Change) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    await discardRequestBody(request);
    return answer(413, { outcome: "invalid", message: OFFLINE_MESSAGES.invalid });
  }
  const formData = await request.formData().catch(() => null);
  if (!formData) return answer(400, { outcome: "invalid", message: OFFLINE_MESSAGES.invalid });
  const { visitId, user, intent } = change;
  const result: AppliedOfflineChange = {
    status: 200,
    message:
      intent === "complete"
        ? VISIT_TOASTS.complete.description
        : intent === "miss"
          ? VISIT_TOASTS.miss.description
          : OFFLINE_MESSAGES.notesSaved,
  };
  try {
    if (intent === "notes") {
      const submission = parseWithZod(formData, { schema: notesSchema });
      if (submission.status !== "success")
        return answer(400, { outcome: "invalid", message: OFFLINE_MESSAGES.invalid });
      const saved = await saveVisitNotes(visitId, submission.value.notes || null, user.id, keeping(change, result));
      if (!saved) return answer(403, { outcome: "refused", message: OFFLINE_MESSAGES.refused });
      return applied(result);
    }
    let input: Parameters<typeof applyVisitAction>[1] = { action: "complete" };
    if (intent === "miss") {
      const submission = parseWithZod(formData, { schema: missSchema });
      if (submission.status !== "success")
        return answer(400, { outcome: "invalid", message: OFFLINE_MESSAGES.invalid });
      input = { action: "miss", ...submission.value };
    }
    const outcome = await applyVisitAction(visitId, input, user.id, new Date(), keeping(change, result));
    if (outcome.kind === "not-found") return answer(403, { outcome: "refused", message: OFFLINE_MESSAGES.refused });
    if (outcome.kind === "not-allowed") return notAllowedOrTwin(change);
    if (intent === "complete") {
      const visit = await getVisit(visitId);
      if (visit) await recordLocationAtCompletion(formData, visit.customer_id);
    }
    log.info("offline.applied", { visitId, intent, userId: user.id });
    return applied(result);
  } catch (error) {
    // The same key sent twice at once: the second transaction met the first's key and rolled back.
    if (isUniqueViolation(error)) return notAllowedOrTwin(change);
    throw error;
  }
}

/** A change the visit no longer allows: the twin send's stored answer, or a conflict. */
async function notAllowedOrTwin(change: Change) {
  const twin = await findOfflineChange(change.user.id, change.key);
  if (twin) return applied(twin, true);
  return answer(409, { outcome: "conflict", message: OFFLINE_MESSAGES.notAllowed });
}

async function sendPhoto(request: Request, change: Change, url: URL) {
  const outcome = await uploadMedia(request, change.user.id, url);
  if (outcome.kind !== "stored" || !outcome.result.ok) {
    return answer(400, { outcome: "invalid", message: OFFLINE_MESSAGES.photoFailed });
  }
  const result = { status: 200, message: OFFLINE_MESSAGES.photoSaved };
  // The upload streamed to storage outside a transaction; its key is written once it is stored.
  await keeping(
    change,
    result,
  )(await getDb()).catch((error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
  });
  log.info("offline.applied", { visitId: change.visitId, intent: "photo", userId: change.user.id });
  return applied(result);
}

function isUniqueViolation(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}
