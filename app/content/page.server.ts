import { canonicalUrl, type PageSeo } from "~/utils/seo";
import { getEnv } from "~/utils/env.server";
import { getSiteSettings } from "./content.server";
import type { Seo } from "./types";

export function getSiteUrl(): string {
  return getEnv().SITE_URL;
}

/** A page's search listing from its content, with the canonical URL on SITE_URL. */
export async function pageSeo(
  seo: Seo,
  path: string,
  options: Pick<PageSeo, "robots" | "type"> = {},
): Promise<PageSeo> {
  const settings = await getSiteSettings();
  return {
    title: seo.title,
    description: seo.description,
    canonical: canonicalUrl(getSiteUrl(), path),
    siteName: settings.businessName,
    ...options,
  };
}
