import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/features/staff/staff-access.server";
import { creditNotePdfStream } from "~/features/billing/credit-note-pdf.server";
import { loadAdminCreditNote } from "~/features/billing/credit-notes.server";

// A credit note as a PDF for the admin, streamed (docs/decisions/118).
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "billing");
  const note = await loadAdminCreditNote(params.creditNoteId ?? "");
  if (!note) return new Response("Credit note not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(creditNotePdfStream(note), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="credit-note-${note.number}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
