import type { MetaDescriptor } from "@remix-run/node";

/**
 * One page's search and link-preview tags. Loaders build it on the server (they know SITE_URL);
 * `meta` turns it into tags, so every page gets the same complete set.
 */
export type PageSeo = {
  title: string;
  description: string;
  canonical: string;
  siteName: string;
  robots?: string;
  type?: "website" | "article";
};

export function canonicalUrl(siteUrl: string, path: string): string {
  const url = new URL(path, siteUrl);
  url.search = "";
  url.hash = "";
  return url.toString();
}

export function seoMeta(seo: PageSeo | undefined): MetaDescriptor[] {
  if (!seo) return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
  return [
    { title: seo.title },
    { name: "description", content: seo.description },
    { tagName: "link", rel: "canonical", href: seo.canonical },
    { name: "robots", content: seo.robots ?? "index, follow" },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:site_name", content: seo.siteName },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: seo.canonical },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: seo.title },
    { name: "twitter:description", content: seo.description },
  ];
}

/** What a private page's `meta` needs from the matched routes: the root's shell content. */
type MatchesWithShell = readonly { id: string; data?: unknown }[];

/**
 * Tags of a page behind sign-in: "Title | Business", its description, and noindex. The business
 * name comes from the root loader's shell content (the owner's site settings).
 */
export function privatePageMeta(matches: MatchesWithShell, title: string, description: string): MetaDescriptor[] {
  const root = matches.find((m) => m.id === "root")?.data as { shell?: { businessName?: string } } | undefined;
  const site = root?.shell?.businessName;
  return [
    { title: site ? `${title} | ${site}` : title },
    { name: "description", content: description },
    { name: "robots", content: "noindex" },
  ];
}
