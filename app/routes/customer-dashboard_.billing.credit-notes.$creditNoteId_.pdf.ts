import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/features/accounts/auth.server";
import { creditNotePdfStream } from "~/features/billing/credit-note-pdf.server";
import { loadCustomerCreditNote } from "~/features/billing/credit-notes.server";

// The customer's credit note as a PDF download, streamed; anyone else's id is a 404.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const note = await loadCustomerCreditNote(params.creditNoteId ?? "", user.id);
  if (!note) return new Response("Credit note not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(creditNotePdfStream(note), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="credit-note-${note.number}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
