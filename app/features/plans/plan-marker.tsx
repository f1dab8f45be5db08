/**
 * The small "Plan" marker of a visit made from a customer plan, after the visit's type on the
 * admin's lists (Visits, Today). One class and a few words a row (decision 076); a screen reader
 * hears "Weekly Service made from a Plan".
 */
export function PlanMarker() {
  return (
    <>
      {" "}
      <span className="chip ml-1 text-sm">
        <span className="sr-only">made from a </span>Plan
      </span>
    </>
  );
}
