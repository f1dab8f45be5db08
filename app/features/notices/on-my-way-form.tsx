import { onMyWayPath, type OnMyWayReturn } from "./on-my-way-paths";
import { leanPrimaryButtonClass } from "~/components/ui-classes";

/**
 * "On my way" on a stop of Today and on the admin's visit page: a plain form that posts (no
 * JavaScript needed, so it works on Today's static page too). After it was sent it says when.
 * `estimate`: the route's estimated arrival (ISO), when the page knows one.
 */
export function OnMyWayForm({
  visitId,
  returnTo,
  sentAt,
  estimate,
}: {
  visitId: string;
  returnTo: OnMyWayReturn;
  /** "10:31 AM" when it was sent already. */
  sentAt?: string | null;
  estimate?: string | null;
}) {
  if (sentAt) {
    return <p className="mt-2 font-medium">{`On my way sent at ${sentAt}`}</p>;
  }
  return (
    <form method="post" action={onMyWayPath(visitId)} className="mt-2">
      <input type="hidden" name="returnTo" value={returnTo} />
      {estimate ? <input type="hidden" name="estimate" value={estimate} /> : null}
      <button type="submit" className={leanPrimaryButtonClass}>
        On my way
      </button>
    </form>
  );
}
