import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CtaBanner } from "~/components/cta-banner";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { HighlightList } from "~/components/highlight-list";
import { JsonLd } from "~/components/json-ld";
import { PageHero, PageSection } from "~/components/page-hero";
import { RichText } from "~/components/portable-text";
import { ResponsiveImage } from "~/components/responsive-image";
import { ServiceAreaList } from "~/components/service-area";
import { getAboutPage, getSiteSettings } from "~/content/content.server";
import { resolveImage } from "~/content/images.server";
import { getSiteUrl, pageSeo } from "~/content/page.server";
import { localBusiness, webPage } from "~/content/structured-data";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { publicPageHeaders } from "~/utils/cache-headers";
import { seoMeta } from "~/utils/seo";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request }: LoaderFunctionArgs) {
  const [about, settings] = await Promise.all([getAboutPage(), getSiteSettings()]);
  const siteUrl = getSiteUrl();
  return json(
    {
      about,
      serviceAreas: settings.serviceAreas,
      image: resolveImage(about.whoWeAre.image, { maxWidth: 560, aspectRatio: 4 / 3 }),
      seo: await pageSeo(about.seo, "/about"),
      jsonLd: [
        webPage(
          { type: "AboutPage", name: about.seo.title, description: about.seo.description, path: "/about" },
          siteUrl,
        ),
        localBusiness(settings, siteUrl),
      ],
    },
    { headers: publicCacheHeaders(request) },
  );
}

// A static page: no React in the browser for an anonymous visit (decision 066).
export const handle = STATIC_PAGE;

export const headers = publicPageHeaders;

export default function AboutPage() {
  const { about, serviceAreas, image, jsonLd } = useLoaderData<typeof loader>();
  return (
    <>
      <JsonLd data={jsonLd} />
      <PageHero heading={about.hero.heading} text={about.hero.text} />

      <PageSection id="who" heading={about.whoWeAre.heading}>
        <div className="grid gap-10 lg:grid-cols-5">
          <div className="-mt-4 lg:col-span-3">
            <RichText value={about.whoWeAre.body} />
          </div>
          {image ? (
            <div className="lg:col-span-2">
              <ResponsiveImage image={image} sizes="(min-width: 1024px) 28rem, 100vw" />
            </div>
          ) : null}
        </div>
      </PageSection>

      <PageSection id="promise" heading={about.promise.heading} text={about.promise.text} tone="tinted" />

      <PageSection id="why" heading={about.whyChoose.heading}>
        <HighlightList items={about.whyChoose.items} columns={3} />
      </PageSection>

      <PageSection id="area" heading={about.serviceArea.heading} text={about.serviceArea.text} tone="tinted">
        <ServiceAreaList areas={serviceAreas} />
      </PageSection>

      <section>
        <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
          <div className="rounded-2xl border-2 border-brand-700 bg-brand-50 p-6 sm:p-10 dark:border-brand-400 dark:bg-brand-950 hc:border-black hc:bg-white">
            <h2 id="guarantee-heading" className="section-heading">
              {about.guarantee.heading}
            </h2>
            {about.guarantee.text ? <p className="mt-3 max-w-3xl text-lg ink-soft">{about.guarantee.text}</p> : null}
          </div>
        </div>
      </section>

      <CtaBanner id="cta" cta={about.cta} to="/contact" />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
