import { CUSTOMER_MATCHES_LIMIT, customerOptionLabel, type CustomerOption } from "./customer-options";
import { getCustomer, searchCustomers, type CustomerRow } from "~/models/customer.server";

const toOption = (c: CustomerRow): CustomerOption => ({
  id: c.id,
  label: customerOptionLabel({ email: c.email, fullName: c.full_name, emailVerified: c.email_verified_at !== null }),
});

/**
 * The picker's matches for what the admin typed: never a list of every customer, at most
 * CUSTOMER_MATCHES_LIMIT of them (docs/decisions/064). An empty search matches nobody.
 */
export async function findCustomerOptions(query: string): Promise<CustomerOption[]> {
  const q = query.trim();
  if (!q) return [];
  const rows = await searchCustomers({ q, limit: CUSTOMER_MATCHES_LIMIT });
  return rows.map(toOption);
}

/** The chosen customer (from the URL), or null for an unknown id or an admin. */
export async function getCustomerOption(id: string | null): Promise<CustomerOption | null> {
  const row = id ? await getCustomer(id) : null;
  return row ? toOption(row) : null;
}
