import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JsonLd } from "~/components/json-ld";
import { PageHero } from "~/components/page-hero";
import { getGalleryPage } from "~/content/content.server";
import { getSiteUrl, pageSeo } from "~/content/page.server";
import { webPage } from "~/content/structured-data";
import { BeforeAfterList } from "~/features/gallery/before-after-list";
import { getGalleryPairs } from "~/features/gallery/gallery.server";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { publicPageHeaders } from "~/utils/cache-headers";
import { seoMeta } from "~/utils/seo";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request }: LoaderFunctionArgs) {
  const [page, pairs] = await Promise.all([getGalleryPage(), getGalleryPairs()]);
  return json(
    {
      page,
      pairs,
      seo: await pageSeo(page.seo, "/gallery"),
      jsonLd: [
        webPage(
          { type: "CollectionPage", name: page.seo.title, description: page.seo.description, path: "/gallery" },
          getSiteUrl(),
        ),
      ],
    },
    { headers: publicCacheHeaders(request) },
  );
}

// A static page: no React in the browser for an anonymous visit (decision 066).
export const handle = STATIC_PAGE;

export const headers = publicPageHeaders;

export default function GalleryPage() {
  const { page, pairs, jsonLd } = useLoaderData<typeof loader>();
  return (
    <>
      <JsonLd data={jsonLd} />
      <PageHero heading={page.hero.heading} text={page.hero.text} />
      <div className="mx-auto max-w-6xl px-4 pb-12 sm:pb-16">
        {pairs.length > 0 ? (
          <BeforeAfterList pairs={pairs} headingLevel={2} />
        ) : (
          <p className="text-lg ink-muted">{page.emptyText}</p>
        )}
      </div>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
