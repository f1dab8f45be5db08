import { Link } from "@remix-run/react";
import { filterLinkClass } from "~/components/ui-classes";

export type InvoiceStatusOption = { value: string; label: string };

/**
 * The Billing tab's status links. The current one is filled and underlined, so that a sighted
 * admin sees which list is shown, not only a screen reader (aria-current); issue 35 item 6.
 */
export function InvoiceStatusNav({ statuses, current }: { statuses: readonly InvoiceStatusOption[]; current: string }) {
  return (
    <nav aria-label="Invoice status" className="mt-6">
      <ul className="flex flex-wrap gap-2">
        {statuses.map((option) => (
          <li key={option.value}>
            <Link
              to={`?status=${option.value}`}
              className={filterLinkClass(option.value === current)}
              aria-current={option.value === current ? "page" : undefined}
            >
              {option.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
