/**
 * The phone's queue of changes made without signal (docs/decisions/127), in IndexedDB through
 * `idb`. A change keeps what its form held (files as Blobs), the idempotency key made when it
 * was made, and whose it is: only the signed-in staff member's changes are ever sent.
 * Browser code only (the staff app's script).
 */
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import type { OfflineIntentName } from "./offline-messages";

export type QueuedField = [name: string, value: string] | [name: string, value: Blob, filename: string];

export type QueuedChange = {
  /** The idempotency key (a uuid made when the change was made). */
  key: string;
  userId: string;
  visitId: string;
  intent: OfflineIntentName;
  /** When the page the change was made on was rendered (the server's conflict check). */
  seenAt: string;
  madeAt: number;
  /** "Mark Completed: Weekly Service, Tue, Dec 4": what the status line calls it. */
  label: string;
  fields: QueuedField[];
};

/** A change the server did not apply (a conflict, a refusal), kept until the technician has read it. */
export type SendProblem = { key: string; userId: string; label: string; message: string; at: number };

interface QueueSchema extends DBSchema {
  changes: { key: string; value: QueuedChange; indexes: { byMade: number } };
  problems: { key: string; value: SendProblem };
  meta: { key: string; value: { userId: string; lastSyncAt: number } };
}

export const QUEUE_DB = "staff-app-queue";
let opened: Promise<IDBPDatabase<QueueSchema>> | null = null;

function queueDb() {
  opened ??= openDB<QueueSchema>(QUEUE_DB, 1, {
    upgrade(db) {
      db.createObjectStore("changes", { keyPath: "key" }).createIndex("byMade", "madeAt");
      db.createObjectStore("problems", { keyPath: "key" });
      db.createObjectStore("meta", { keyPath: "userId" });
    },
  });
  return opened;
}

export async function queueChange(change: QueuedChange) {
  await (await queueDb()).put("changes", change);
}

/** This staff member's waiting changes, oldest first (the order they were made in). */
export async function waitingChanges(userId: string): Promise<QueuedChange[]> {
  const all = await (await queueDb()).getAllFromIndex("changes", "byMade");
  return all.filter((change) => change.userId === userId);
}

export async function forgetChange(key: string) {
  await (await queueDb()).delete("changes", key);
}

export async function recordProblem(problem: SendProblem) {
  const db = await queueDb();
  const tx = db.transaction(["changes", "problems"], "readwrite");
  await Promise.all([tx.objectStore("changes").delete(problem.key), tx.objectStore("problems").put(problem), tx.done]);
}

export async function problemsOf(userId: string): Promise<SendProblem[]> {
  return (await (await queueDb()).getAll("problems")).filter((p) => p.userId === userId).sort((a, b) => a.at - b.at);
}

export async function dismissProblem(key: string) {
  await (await queueDb()).delete("problems", key);
}

export async function lastSyncOf(userId: string): Promise<number | null> {
  return (await (await queueDb()).get("meta", userId))?.lastSyncAt ?? null;
}

export async function recordSync(userId: string, at = Date.now()) {
  await (await queueDb()).put("meta", { userId, lastSyncAt: at });
}

/** Signing out (or another person signing in) forgets everything this phone kept. */
export async function clearQueue() {
  const db = await queueDb();
  const tx = db.transaction(["changes", "problems", "meta"], "readwrite");
  await Promise.all([
    tx.objectStore("changes").clear(),
    tx.objectStore("problems").clear(),
    tx.objectStore("meta").clear(),
    tx.done,
  ]);
}
