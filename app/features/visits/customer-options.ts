/** A customer as the Create Service picker shows it (client-safe: the combobox builds labels too). */
export type CustomerOption = { id: string; label: string };

/** At most this many matches are shown for one search: type more to narrow it. */
export const CUSTOMER_MATCHES_LIMIT = 20;
/** Longer searches are refused (400), as on the Customers list. */
export const CUSTOMER_QUERY_MAX_LENGTH = 100;

export function customerOptionLabel(c: { email: string; fullName: string | null; emailVerified: boolean }) {
  const name = c.fullName ? `${c.fullName} (${c.email})` : c.email;
  return c.emailVerified ? name : `${name} (unverified)`;
}
