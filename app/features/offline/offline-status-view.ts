/**
 * Writes the status section that OfflineQueueStatus rendered empty (docs/decisions/127):
 * "3 changes waiting to send", the last sync time, a notice, and the changes the server did not
 * apply, each with "Dismiss". Browser code only.
 */
import type { SendProblem } from "./offline-queue";

export type StatusView = {
  waiting: number;
  lastSyncAt: number | null;
  online: boolean;
  notice: string;
  problems: SendProblem[];
};

export function waitingLabel(count: number) {
  if (count === 0) return "No changes waiting to send";
  return `${count} ${count === 1 ? "change" : "changes"} waiting to send`;
}

export function syncLabel(lastSyncAt: number | null, online: boolean) {
  const when = lastSyncAt
    ? `Last sync: ${new Date(lastSyncAt).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })}`
    : "Not synced yet";
  return online ? when : `Offline. ${when}. Changes are kept on this phone and sent when the signal returns.`;
}

export function renderStatus(root: HTMLElement, view: StatusView, onDismiss: (key: string) => void) {
  root.hidden = false;
  const part = (name: string) => root.querySelector<HTMLElement>(`[data-offline-${name}]`)!;
  part("waiting").textContent = waitingLabel(view.waiting);
  part("sync").textContent = syncLabel(view.lastSyncAt, view.online);
  part("notice").textContent = view.notice;
  const list = part("problems");
  list.replaceChildren(
    ...view.problems.map((problem) => {
      const item = document.createElement("li");
      item.className = "rounded-lg bg-red-50 p-3 text-red-900 dark:bg-red-950 dark:text-red-100";
      const title = document.createElement("strong");
      title.textContent = `Not applied: ${problem.label}. `;
      const dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "tap-link ml-2 underline";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", () => onDismiss(problem.key));
      item.append(title, document.createTextNode(problem.message), dismiss);
      return item;
    }),
  );
}
