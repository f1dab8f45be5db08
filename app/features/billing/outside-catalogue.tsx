import { Link } from "@remix-run/react";
import { tapLinkClass } from "~/components/ui-classes";

export type OutsideCatalogueView = {
  count: number;
  plans: { id: string; customerId: string; customer: string; plan: string; price: string | null }[];
};

/**
 * The Billing tab's warning (decision 116): plans whose catalogue plan is gone from Sanity. They
 * are still billed at the price stored on them; the owner can move each to a plan of the catalogue.
 */
export function OutsideCatalogueList({ outside }: { outside: OutsideCatalogueView }) {
  if (outside.count === 0) return null;
  return (
    <section aria-labelledby="outside-catalogue-heading" className="mt-6" role="status">
      <h3 id="outside-catalogue-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Plans no longer in the catalogue
      </h3>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        {outside.count === 1 ? "1 plan's" : `${outside.count} plans'`} catalogue plan is no longer in the catalogue.
        They are still billed at the price stored on them; change each plan to one of the catalogue to re-price it.
      </p>
      <ul className="mt-2 space-y-2" data-testid="outside-catalogue">
        {outside.plans.map((plan) => (
          <li key={plan.id}>
            <Link to={`/admin-dashboard/customers/${plan.customerId}`} className={tapLinkClass}>
              {plan.customer}
            </Link>
            : {plan.plan}, no longer in the catalogue{plan.price ? `, billed at ${plan.price}` : ""}
          </li>
        ))}
      </ul>
      {outside.count > outside.plans.length ? <p className="mt-2">And more: the oldest are shown.</p> : null}
    </section>
  );
}
