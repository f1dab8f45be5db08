import { useNonce } from "~/utils/nonce";

/**
 * Structured data for search engines. `<` is escaped so that content can never close the
 * script element; the nonce keeps the strict CSP's rule that every script tag carries it.
 */
export function JsonLd({ data }: { data: Record<string, unknown> | Record<string, unknown>[] }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
    />
  );
}
