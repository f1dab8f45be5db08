import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireStaff } from "~/features/staff/staff-access.server";
import { CUSTOMER_QUERY_MAX_LENGTH } from "~/features/visits/customer-options";
import { findCustomerOptions } from "~/features/visits/customer-search.server";

// The Create Service picker's matches as the admin types (the combobox fetches them): admins
// only, at most 20 customers, never the whole list. The anonymous go to /auth and customers to
// their dashboard, like every admin loader.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "customers");
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const headers = { "Cache-Control": "private, no-store" };
  if (q.length > CUSTOMER_QUERY_MAX_LENGTH) {
    return json(
      { customers: [], error: `Search for at most ${CUSTOMER_QUERY_MAX_LENGTH} characters` },
      { status: 400, headers },
    );
  }
  return json({ customers: await findCustomerOptions(q), error: null }, { headers });
}
