import { getSiteUrl } from "~/content/page.server";
import { PUBLIC_CACHE_CONTROL } from "~/utils/cache-headers";

/** The portal and the machinery stay out of search results; everything else is welcome. */
const PRIVATE_PATHS = ["/auth", "/customer-dashboard", "/admin-dashboard", "/logout", "/resources/"];

export async function loader() {
  const lines = [
    "User-agent: *",
    "Allow: /",
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${new URL("/sitemap.xml", getSiteUrl()).toString()}`,
    "",
  ];
  return new Response(lines.join("\n"), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PUBLIC_CACHE_CONTROL },
  });
}
