import { getSitemapEntries } from "~/content/content.server";
import { getSiteUrl } from "~/content/page.server";
import { PUBLIC_CACHE_CONTROL } from "~/utils/cache-headers";

const escapeXml = (value: string) =>
  value.replace(
    /[<>&'"]/g,
    (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char] ?? char,
  );

/** Every public page, from content: a new plan or legal page appears here without a deploy. */
export async function loader() {
  const siteUrl = getSiteUrl();
  const entries = await getSitemapEntries();
  const urls = entries.map((entry) => {
    const loc = escapeXml(new URL(entry.path, siteUrl).toString());
    const lastmod = entry.lastModified.slice(0, 10);
    return `  <url>\n    <loc>${loc}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </url>`;
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join(
    "\n",
  )}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": PUBLIC_CACHE_CONTROL },
  });
}
