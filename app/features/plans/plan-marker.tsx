/**
 * The small "Plan" marker of a visit made from a customer plan, on the admin's lists (Visits,
 * Today). One class and a few words a row (decision 076); a screen reader hears "made from a Plan".
 */
export function PlanMarker() {
  return (
    <span className="chip ml-2 text-sm">
      <span className="sr-only">made from a </span>Plan
    </span>
  );
}
