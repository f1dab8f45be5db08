import { useMatches } from "@remix-run/react";

/**
 * Public pages that need no React in the browser (decision 066). A route exports
 * `export const handle = STATIC_PAGE;` and the root then leaves out Remix's scripts for an
 * anonymous page view: no framework download, no hydration, no copy of the loader data in the
 * HTML. What such a page needs in the browser is plain inline script (the accessibility panel,
 * the compare sliders), plain browser scripts (068) and plain HTML (links, forms, <details>).
 * A page with a toast stays static: the server's toast has its own small script (075). A page
 * that must show a live preview is hydrated as before.
 */
export const STATIC_PAGE = { staticPage: true } as const;

export function isStaticPageHandle(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { staticPage?: unknown }).staticPage === true;
}

type MatchLike = { id: string; handle?: unknown; data?: unknown };

/**
 * Whether the root renders this page without Remix's scripts: its leaf route is a static page,
 * the root's loader answered (an error without root data is hydrated), and no live preview is
 * on (Sanity's overlays need React). A flash toast does not matter (decision 075).
 */
export function isStaticRender(matches: readonly MatchLike[]): boolean {
  const root = matches.find((match) => match.id === "root")?.data as { preview?: unknown } | null | undefined;
  const leaf = matches[matches.length - 1];
  return Boolean(root && !root.preview && leaf && isStaticPageHandle(leaf.handle));
}

/**
 * `isStaticRender` of the current matches, as the server renders them: for the root and what
 * renders its own scripts. Inside Remix in the browser (its context is on `window`) it is always
 * false: React runs there only on a page it hydrated, and a static page it reaches by a
 * client-side navigation (a link in the admin's tabs) renders inside that running app, which
 * must keep its scripts and its toasts (decision 077). Only a document load of a static page
 * comes without React, and that is rendered on the server.
 */
export function useStaticPage(): boolean {
  const matches = useMatches();
  const insideRemixApp = typeof window !== "undefined" && "__remixContext" in window;
  return !insideRemixApp && isStaticRender(matches);
}
