import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { h3Class, type AdminVisitData } from "./admin-visit-view";
import { linkClass, tapLinkClass } from "~/components/ui-classes";
import { YardDetails } from "~/features/yards/yard-details";

/**
 * The visit page's Customer section: how to reach them, and their yard. The name links to the
 * customer's page only for staff who may open it (`customer.href`); `gateCode` stands in for the
 * code for staff who must ask for it (decision 128).
 */
export function AdminVisitCustomer({
  customer,
  yard,
  gateCode,
}: Pick<AdminVisitData, "customer" | "yard"> & { gateCode?: ReactNode }) {
  return (
    <section aria-labelledby="customer-heading" className="mt-8">
      <h3 id="customer-heading" className={h3Class}>
        Customer
      </h3>
      <dl className="mt-3 grid gap-x-8 gap-y-3 sm:grid-cols-3">
        <div>
          <dt className="font-semibold">Name</dt>
          <dd>
            {customer.href ? (
              <Link to={customer.href} className={linkClass}>
                {customer.name ?? customer.email}
              </Link>
            ) : (
              (customer.name ?? customer.email)
            )}
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
      <YardDetails yard={yard} gateCode={gateCode} />
    </section>
  );
}
