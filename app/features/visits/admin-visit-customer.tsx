import { Link } from "@remix-run/react";
import { h3Class, type AdminVisitData } from "./admin-visit-view";
import { linkClass, tapLinkClass } from "~/components/ui-classes";
import { YardDetails } from "~/features/yards/yard-details";

/** The visit page's Customer section: how to reach them, and their yard. */
export function AdminVisitCustomer({ customer, yard }: Pick<AdminVisitData, "customer" | "yard">) {
  return (
    <section aria-labelledby="customer-heading" className="mt-8">
      <h3 id="customer-heading" className={h3Class}>
        Customer
      </h3>
      <dl className="mt-3 grid gap-x-8 gap-y-3 sm:grid-cols-3">
        <div>
          <dt className="font-semibold">Name</dt>
          <dd>
            <Link to={`/admin-dashboard/customers/${customer.id}`} className={linkClass}>
              {customer.name ?? customer.email}
            </Link>
          </dd>
        </div>
        <div>
          <dt className="font-semibold">E-mail</dt>
          <dd className="break-all">
            <a href={`mailto:${customer.email}`} className={linkClass}>
              {customer.email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Phone</dt>
          <dd>
            {customer.phone ? (
              <a href={customer.phone.href} className={tapLinkClass}>
                {customer.phone.label}
              </a>
            ) : (
              "Not on file"
            )}
          </dd>
        </div>
      </dl>
      <h4 className="mt-4 text-lg font-semibold">Yard</h4>
      <YardDetails yard={yard} />
    </section>
  );
}
