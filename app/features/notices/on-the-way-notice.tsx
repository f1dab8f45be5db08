/**
 * The customer's visit page from "On my way" until the visit has an outcome: a status message
 * (role="status"), so it is read out when the page loads.
 */
export function OnTheWayNotice({ since }: { since: string | null }) {
  if (!since) return null;
  return (
    <p
      role="status"
      className="mt-4 rounded-lg bg-brand-50 p-3 text-lg font-semibold text-brand-900 dark:bg-brand-950 dark:text-brand-50"
    >
      {`On the way: your technician set out at ${since}.`}
    </p>
  );
}
