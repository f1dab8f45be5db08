import { BrowserScript } from "~/components/browser-script";

/**
 * "3 changes waiting to send" and the last sync (docs/decisions/127), on every staff page. The
 * server renders an empty box: without JavaScript there is no queue (every form posts as it
 * always did), so there is nothing to say. The staff app's script writes the section into it.
 * React leaves the inside of an element with `dangerouslySetInnerHTML` alone when it hydrates
 * and after, so what the script writes is never a hydration mismatch, nor reset.
 */
export function OfflineQueueStatus({ userId, script }: { userId: string; script: string | null }) {
  return (
    <>
      <div id="offline-status" data-user={userId} dangerouslySetInnerHTML={{ __html: "" }} />
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
