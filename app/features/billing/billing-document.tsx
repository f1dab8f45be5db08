import type { ReactNode } from "react";

/**
 * The frame every billing document shares (an invoice, a credit note; docs/decisions/118): its
 * title and subtitle, who it is from, the facts it states (to whom, when, its state) and its body.
 * The customer's printable pages and the admin's pages show it; it prints on its own (the site's
 * header and footer are hidden in print by app/tailwind.css). A long e-mail address breaks rather
 * than widen a phone's page.
 */
export type DocumentBusiness = { name: string; phone: string; email: string };
export type DocumentFact = { label: string; value: ReactNode };

export const documentCellClass = "py-2 pr-4 align-top";
export const documentMoneyClass = "py-2 text-right align-top tabular-nums";

/** "Alice Able (alice@example.com)", or the address alone. */
export const partyText = (party: { name: string | null; email: string }) =>
  party.name ? `${party.name} (${party.email})` : party.email;

export function BillingDocument({
  headingId,
  title,
  subtitle,
  business,
  facts,
  footer,
  children,
}: {
  headingId: string;
  title: string;
  subtitle: string;
  business: DocumentBusiness;
  facts: readonly DocumentFact[];
  footer?: string | null;
  children: ReactNode;
}) {
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-300 p-6 shadow-sm print:border-0 print:shadow-none dark:border-slate-600"
    >
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id={headingId} className="text-2xl font-bold text-slate-900 dark:text-white">
            {title}
          </h2>
          <p className="text-slate-700 dark:text-slate-300">{subtitle}</p>
        </div>
        <div className="break-words text-right text-slate-800 dark:text-slate-100">
          <p className="font-semibold">{business.name}</p>
          <p>{business.phone}</p>
          <p>{business.email}</p>
        </div>
      </header>
      <dl className="mt-4 grid gap-x-6 gap-y-1 break-words text-slate-800 sm:grid-cols-2 dark:text-slate-100">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt className="inline font-semibold">{fact.label}: </dt>
            <dd className="inline">{fact.value}</dd>
          </div>
        ))}
      </dl>
      {children}
      {footer ? <p className="mt-6 text-slate-700 dark:text-slate-300">{footer}</p> : null}
    </article>
  );
}
