/**
 * The legal pages the site has a route for, with the short label the footer uses. The studio
 * only accepts these slugs (studio/schemas/documents/legal-page.ts), so no page lacks a URL.
 */
export const LEGAL_PAGES = [
  { slug: "terms-of-service", label: "Terms of Service" },
  { slug: "privacy-policy", label: "Privacy Policy" },
  { slug: "disclaimer", label: "Disclaimer" },
  { slug: "accessibility", label: "Accessibility" },
] as const;

export type LegalSlug = (typeof LEGAL_PAGES)[number]["slug"];
