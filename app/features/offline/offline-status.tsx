import { BrowserScript } from "~/components/browser-script";

/**
 * "3 changes waiting to send" and the last sync (docs/decisions/127), on every staff page. The
 * server renders it empty and hidden: without JavaScript there is no queue (every form posts as
 * it always did), so there is nothing to say. The staff app's script fills it in and shows it;
 * it also holds what the server did not apply, for the technician to read and dismiss.
 */
export function OfflineQueueStatus({ userId, script }: { userId: string; script: string | null }) {
  return (
    <>
      <section
        id="offline-status"
        data-user={userId}
        aria-labelledby="offline-status-heading"
        hidden
        className="mt-4 rounded-lg border border-slate-300 p-3 text-base dark:border-slate-600"
      >
        <h2 id="offline-status-heading" className="sr-only">
          Changes on this phone
        </h2>
        <p role="status" data-offline-waiting className="font-semibold text-slate-900 dark:text-white" />
        <p data-offline-sync className="text-slate-700 dark:text-slate-200" />
        <p role="status" data-offline-notice className="text-slate-900 dark:text-white" />
        <ul data-offline-problems className="mt-2 space-y-2" />
      </section>
      <BrowserScript src={script} />
    </>
  );
}

/**
 * What the visit page tells the queue about itself: which visit, when the server read it (a
 * change queued on this page is a conflict if someone else changed the visit after that), and
 * its name for the status line.
 */
export function OfflineVisitMarker({ visitId, seenAt, label }: { visitId: string; seenAt: string; label: string }) {
  return <div hidden data-offline-visit={visitId} data-seen-at={seenAt} data-label={label} />;
}
