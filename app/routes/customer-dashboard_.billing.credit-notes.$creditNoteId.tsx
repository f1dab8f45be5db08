import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { primaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { CreditNoteDocument } from "~/features/billing/credit-note-document";
import { loadCustomerCreditNote } from "~/features/billing/credit-notes.server";
import { privatePageMeta } from "~/utils/seo";

// One of the signed-in customer's credit notes, printable; anyone else's id is a 404, like a
// missing one (docs/decisions/118).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const note = await loadCustomerCreditNote(params.creditNoteId ?? "", user.id);
  if (!note) throw new Response("Credit note not found", { status: 404 });
  return json({ note }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function CustomerCreditNote() {
  const { note } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <p className="print:hidden">
        <Link to="/customer-dashboard/billing" className={tapLinkClass}>
          <span aria-hidden="true">←&nbsp;</span>Billing
        </Link>
      </p>
      <h1 className="sr-only">Credit note {note.number}</h1>
      <div className="mt-4">
        <CreditNoteDocument note={note} invoiceHref={(id) => `/customer-dashboard/billing/${id}`} />
      </div>
      <div className="mt-6 flex flex-wrap gap-4 print:hidden">
        <a href={`/customer-dashboard/billing/credit-notes/${note.id}/pdf`} className={primaryButtonClass} download>
          Download PDF
        </a>
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Credit note", "A credit note from your service.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
