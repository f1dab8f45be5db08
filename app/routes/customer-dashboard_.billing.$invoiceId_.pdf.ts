import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/features/accounts/auth.server";
import { loadCustomerInvoice } from "~/features/billing/billing-pages.server";
import { invoicePdfStream } from "~/features/billing/invoice-pdf.server";

// The customer's invoice as a PDF download, streamed; anyone else's id is a 404.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const invoice = await loadCustomerInvoice(params.invoiceId ?? "", user.id);
  if (!invoice) return new Response("Invoice not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(invoicePdfStream(invoice), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="invoice-${invoice.number}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
