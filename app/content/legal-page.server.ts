import { json } from "@remix-run/node";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { getLegalPage, getSiteSettings } from "./content.server";
import type { LegalSlug } from "./legal-pages";
import { getSiteUrl, pageSeo } from "./page.server";
import { siteFacts } from "./site-facts";
import { legalWebPage } from "./structured-data";

/** The loader of every legal page: its document, indexable by search engines. */
export async function loadLegalPage(request: Request, slug: LegalSlug) {
  const [page, settings] = await Promise.all([getLegalPage(slug), getSiteSettings()]);
  // The dataset and the studio guarantee the four pages; a missing one is a content error.
  if (!page) throw new Response("Not Found", { status: 404 });
  return json(
    {
      page,
      // The phone, e-mail and other business facts the text quotes, read from Site settings.
      facts: siteFacts(settings),
      seo: await pageSeo(page.seo, `/${slug}`, { robots: "index, follow", type: "article" }),
      jsonLd: legalWebPage(page, getSiteUrl()),
    },
    { headers: publicCacheHeaders(request) },
  );
}
