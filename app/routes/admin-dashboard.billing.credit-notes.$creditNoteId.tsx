import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { linkClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { requireStaff } from "~/features/staff/staff-access.server";
import { CreditNoteDocument } from "~/features/billing/credit-note-document";
import { loadAdminCreditNote } from "~/features/billing/credit-notes.server";

// One credit note for an admin, with its customer and invoice linked (docs/decisions/118).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "billing");
  const note = await loadAdminCreditNote(params.creditNoteId ?? "");
  if (!note) throw new Response("Credit note not found", { status: 404 });
  return json({ note }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function AdminCreditNote() {
  const { note } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-8">
      <p>
        <Link to="/admin-dashboard/billing" className={tapLinkClass}>
          <span aria-hidden="true">←&nbsp;</span>Billing
        </Link>
      </p>
      <p className="break-words">
        <Link to={`/admin-dashboard/customers/${note.customer.id}`} className={linkClass}>
          {note.customer.name || note.customer.email}
        </Link>
      </p>
      <CreditNoteDocument note={note} invoiceHref={(id) => `/admin-dashboard/billing/${id}`} />
      <p>
        <a href={`/admin-dashboard/billing/credit-notes/${note.id}/pdf`} className={secondaryButtonClass} download>
          Download PDF
        </a>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Credit note | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
