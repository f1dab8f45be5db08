/**
 * Sends the queued changes when the signal is back (docs/decisions/127), oldest first, each to
 * /resources/offline-change with its idempotency key, so that a send whose answer was lost can
 * simply be sent again. What the server answers decides what happens to the change:
 * applied — forgotten; a conflict, a refusal or bad input — kept as a problem for the technician
 * to read; signed out, an error of the server or no network — kept, and the sending stops until
 * the next try. Browser code only.
 */
import type { OfflineAnswer } from "./offline-messages";
import { OFFLINE_MESSAGES } from "./offline-messages";
import { forgetChange, recordProblem, recordSync, waitingChanges, type QueuedChange } from "./offline-queue";

export type FlushResult = { sent: number; problems: number; stoppedBy: "network" | "sign-in" | "server" | null };

export const OFFLINE_CHANGE_URL = "/resources/offline-change";

function requestOf(change: QueuedChange) {
  const query = new URLSearchParams({
    service: change.visitId,
    intent: change.intent,
    key: change.key,
    seen: change.seenAt,
  });
  const body = new FormData();
  for (const field of change.fields) {
    if (typeof field[1] === "string") body.append(field[0], field[1]);
    else body.append(field[0], field[1], field[2]);
  }
  return { url: `${OFFLINE_CHANGE_URL}?${query}`, body };
}

async function answerOf(response: Response): Promise<OfflineAnswer | null> {
  try {
    return (await response.json()) as OfflineAnswer;
  } catch {
    return null;
  }
}

async function sendOne(change: QueuedChange): Promise<"sent" | "problem" | FlushResult["stoppedBy"]> {
  const { url, body } = requestOf(change);
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body, credentials: "same-origin", redirect: "manual" });
  } catch {
    return "network";
  }
  if (response.status === 401 || response.type === "opaqueredirect") return "sign-in";
  if (response.status >= 500 || response.status === 0) return "server";
  const answer = await answerOf(response);
  if (response.ok && answer?.outcome === "applied") {
    await forgetChange(change.key);
    return "sent";
  }
  await recordProblem({
    key: change.key,
    userId: change.userId,
    label: change.label,
    message: answer?.message ?? OFFLINE_MESSAGES.invalid,
    at: Date.now(),
  });
  return "problem";
}

/** Sends what waits for this staff member, one at a time, until all went or one must wait. */
export async function flushQueue(userId: string): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, problems: 0, stoppedBy: null };
  for (const change of await waitingChanges(userId)) {
    const outcome = await sendOne(change);
    if (outcome === "sent") result.sent += 1;
    else if (outcome === "problem") result.problems += 1;
    else {
      result.stoppedBy = outcome;
      break;
    }
  }
  // The last sync is the last time the server answered: every change sent, or answered for.
  if (result.stoppedBy === null) await recordSync(userId);
  return result;
}
