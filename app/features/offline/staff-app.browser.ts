/**
 * The technician's phone app on the staff pages (docs/decisions/127): registers the service
 * worker that keeps today's route readable offline, queues "Mark Completed", "Mark Missed",
 * notes and photos made without signal, sends them when the signal returns, and shows what
 * waits. Signing out forgets the queue and the cached pages. Without this script every form
 * posts as it always did.
 *
 * Plain browser code (decision 068): idb and the queue's modules, never React or Remix.
 */
import { changeFromSubmit, type PageVisit } from "./offline-capture";
import { OFFLINE_MESSAGES } from "./offline-messages";
import { clearQueue, dismissProblem, lastSyncOf, problemsOf, queueChange, waitingChanges } from "./offline-queue";
import { flushQueue } from "./offline-sender";
import { renderStatus } from "./offline-status-view";
import { STAFF_APP_SCOPE, STAFF_APP_START } from "./staff-app-paths";

const WORKER_URL = `${STAFF_APP_SCOPE}sw.js`;
const WORKER_SCOPE = STAFF_APP_SCOPE;
const TODAY = STAFF_APP_START;
const VISIT_LINK = /^\/admin-dashboard\/visits\/[0-9a-f-]{36}$/i;
const RETRY_MS = 30_000;
const NEEDS_SIGNAL = "This needs a signal: try again when you are back online.";

const root = document.getElementById("offline-status");
if (root?.dataset.user && "indexedDB" in window) start(root, root.dataset.user);

function pageVisit(): PageVisit | null {
  const marker = document.querySelector<HTMLElement>("[data-offline-visit]");
  if (!marker?.dataset.offlineVisit || !marker.dataset.seenAt) return null;
  return { visitId: marker.dataset.offlineVisit, seenAt: marker.dataset.seenAt, label: marker.dataset.label ?? "" };
}

function start(root: HTMLElement, userId: string) {
  let notice = "";
  let sending = false;

  const render = async () => {
    const [waiting, lastSyncAt, problems] = await Promise.all([
      waitingChanges(userId),
      lastSyncOf(userId),
      problemsOf(userId),
    ]);
    renderStatus(root, { waiting: waiting.length, lastSyncAt, online: navigator.onLine, notice, problems }, (key) => {
      void dismissProblem(key).then(render);
    });
  };

  const send = async () => {
    if (sending || !navigator.onLine) return;
    sending = true;
    try {
      const flush = () => flushQueue(userId);
      // One tab sends at a time: two tabs sending the same change would only be answered twice.
      const result = navigator.locks ? await navigator.locks.request("staff-app-send", flush) : await flush();
      if (result.stoppedBy === "sign-in") notice = OFFLINE_MESSAGES.signIn;
      else if (result.sent > 0) notice = `Sent ${result.sent} ${result.sent === 1 ? "change" : "changes"}.`;
    } finally {
      sending = false;
      await render();
    }
  };

  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      if (new URL(form.action, window.location.href).pathname === "/logout") {
        event.preventDefault();
        event.stopImmediatePropagation();
        void forgetThisPhone().finally(() => form.submit());
        return;
      }
      if (navigator.onLine) return;
      const change = changeFromSubmit(form, event.submitter, userId, pageVisit());
      if (change === null) return;
      // Before React's listener (on the document): the page's own handler never sees it.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (change === "needs-signal") {
        notice = NEEDS_SIGNAL;
        void render();
        return;
      }
      void queueChange(change).then(() => {
        form.reset();
        if (event.submitter instanceof HTMLButtonElement && change.intent !== "notes") event.submitter.disabled = true;
        notice = `Saved on this phone: ${change.label}. It is sent when the signal returns.`;
        return render();
      });
    },
    true,
  );
  window.addEventListener("online", () => void send());
  window.addEventListener("offline", () => void render());
  window.setInterval(() => void send(), RETRY_MS);
  void render().then(send);
  void registerWorker(userId);
}

/** Signing out: the queue and every cached page of this person go before the session does. */
async function forgetThisPhone() {
  const worker = navigator.serviceWorker?.controller;
  worker?.postMessage({ type: "sign-out" });
  await Promise.race([
    Promise.all([clearQueue(), caches?.keys().then((names) => Promise.all(names.map((n) => caches.delete(n))))]),
    new Promise((resolve) => setTimeout(resolve, 1500)),
  ]);
}

async function registerWorker(userId: string) {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE });
    const ready = await navigator.serviceWorker.ready;
    const worker = ready.active;
    if (!worker) return;
    if (window.location.pathname === TODAY && !window.location.search && navigator.onLine) {
      // Today's stops, as this page lists them: the worker keeps exactly these visit pages.
      const stops = [...document.querySelectorAll<HTMLAnchorElement>("main a[href]")]
        .map((link) => new URL(link.href))
        .filter((u) => u.origin === window.location.origin && VISIT_LINK.test(u.pathname))
        .map((u) => u.pathname);
      worker.postMessage({ type: "route", userId, urls: [TODAY, ...new Set(stops)] });
    } else {
      worker.postMessage({ type: "user", userId });
    }
  } catch {
    // No worker (a private window, a browser without it): the queue still works while the page is open.
  }
}
