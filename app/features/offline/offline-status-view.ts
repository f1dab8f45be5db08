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

/** The section, written once into the box the server rendered empty (OfflineQueueStatus). */
function sectionIn(root: HTMLElement): HTMLElement {
  const existing = root.querySelector<HTMLElement>("section");
  if (existing) return existing;
  const section = document.createElement("section");
  section.setAttribute("aria-labelledby", "offline-status-heading");
  section.className = "mt-4 rounded-lg border border-slate-300 p-3 text-base dark:border-slate-600";
  const add = (tag: string, attributes: Record<string, string>, className = "") => {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.className = className;
    section.append(element);
    return element;
  };
  add("h2", { id: "offline-status-heading" }, "sr-only").textContent = "Changes on this phone";
  add("p", { role: "status", "data-offline-waiting": "" }, "font-semibold text-slate-900 dark:text-white");
  add("p", { "data-offline-sync": "" }, "text-slate-700 dark:text-slate-200");
  add("p", { role: "status", "data-offline-notice": "" }, "text-slate-900 dark:text-white");
  add("ul", { "data-offline-problems": "" }, "mt-2 space-y-2");
  root.append(section);
  return section;
}

export function renderStatus(root: HTMLElement, view: StatusView, onDismiss: (key: string) => void) {
  const section = sectionIn(root);
  const part = (name: string) => section.querySelector<HTMLElement>(`[data-offline-${name}]`)!;
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
      dismiss.className = "ml-2 min-h-11 px-2 font-semibold underline";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", () => onDismiss(problem.key));
      item.append(title, document.createTextNode(problem.message), dismiss);
      return item;
    }),
  );
}
