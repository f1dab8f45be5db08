/**
 * Public pages that need no React in the browser (decision 066). A route exports
 * `export const handle = STATIC_PAGE;` and the root then leaves out Remix's scripts for an
 * anonymous page view: no framework download, no hydration, no copy of the loader data in the
 * HTML. What such a page needs in the browser is plain inline script (the accessibility panel,
 * the compare sliders) and plain HTML (links, forms, <details>). A page that must show a toast or
 * a live preview is hydrated as before.
 */
export const STATIC_PAGE = { staticPage: true } as const;

export function isStaticPageHandle(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { staticPage?: unknown }).staticPage === true;
}
