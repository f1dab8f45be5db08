import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CtaBanner } from "~/components/cta-banner";
import { CtaLink } from "~/components/cta-link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { HighlightList } from "~/components/highlight-list";
import { JsonLd } from "~/components/json-ld";
import { PageSection } from "~/components/page-hero";
import { PlanCard } from "~/components/plan-card";
import { ResponsiveImage } from "~/components/responsive-image";
import { BusinessHours, ServiceAreaList } from "~/components/service-area";
import { getCatalogue, getGalleryPage, getHomePage, getServicesPage, getSiteSettings } from "~/content/content.server";
import { resolveImage } from "~/content/images.server";
import { getSiteUrl, pageSeo } from "~/content/page.server";
import { localBusiness, webPage } from "~/content/structured-data";
import type { SiteSettings } from "~/content/types";
import { BeforeAfterList } from "~/features/gallery/before-after-list";
import { getGalleryPairs } from "~/features/gallery/gallery.server";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { publicPageHeaders } from "~/utils/cache-headers";
import { seoMeta } from "~/utils/seo";
import { telHref } from "~/utils/tel";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request }: LoaderFunctionArgs) {
  const [home, settings, catalogue, servicesPage, galleryPage, pairs] = await Promise.all([
    getHomePage(),
    getSiteSettings(),
    getCatalogue(),
    getServicesPage(),
    getGalleryPage(),
    getGalleryPairs(HOME_GALLERY_PAIRS),
  ]);
  const siteUrl = getSiteUrl();
  const heroImage = resolveImage(home.hero.image, { maxWidth: 720, aspectRatio: 4 / 3 });
  return json(
    {
      home,
      settings,
      featured: catalogue.filter((plan) => plan.kind === "subscription").slice(0, 3),
      learnMoreLabel: servicesPage.learnMoreLabel,
      heroImage,
      gallery: { section: galleryPage.homeSection, viewAllLabel: galleryPage.viewAllLabel, pairs },
      seo: await pageSeo(home.seo, "/"),
      jsonLd: [
        localBusiness(settings, siteUrl, catalogue),
        webPage({ name: home.seo.title, description: home.seo.description, path: "/" }, siteUrl),
      ],
    },
    { headers: publicCacheHeaders(request) },
  );
}

// A static page: no React in the browser for an anonymous visit (decision 066).
export const handle = STATIC_PAGE;

export const headers = publicPageHeaders;

const HOME_GALLERY_PAIRS = 3;
const HERO_SIZES = "(min-width: 1024px) 36rem, 100vw";

/** Beside the hero when there is no photo: how to reach us, when, and where we work. */
function QuickFacts({ settings }: { settings: SiteSettings }) {
  return (
    <dl className="grid gap-5 rounded-2xl border border-brand-200 bg-white p-6 shadow-sm sm:p-8 dark:border-brand-800 dark:bg-slate-900 hc:border-black">
      <div>
        <dt className="text-sm font-semibold uppercase tracking-wide ink-muted">Call</dt>
        <dd className="mt-1">
          <a
            href={telHref(settings.phone)}
            className="text-2xl font-bold text-brand-800 underline underline-offset-4 dark:text-brand-200"
          >
            {settings.phone}
          </a>
        </dd>
      </div>
      <div>
        <dt className="text-sm font-semibold uppercase tracking-wide ink-muted">Hours</dt>
        <dd className="mt-1 text-lg ink">{settings.hours.display}</dd>
      </div>
      <div>
        <dt className="text-sm font-semibold uppercase tracking-wide ink-muted">Serving</dt>
        <dd className="mt-1 text-lg ink">{settings.serviceAreas.join(" · ")}</dd>
      </div>
    </dl>
  );
}

export default function HomePage() {
  const { home, settings, featured, learnMoreLabel, heroImage, gallery, jsonLd } = useLoaderData<typeof loader>();
  return (
    <>
      <JsonLd data={jsonLd} />
      <section
        aria-labelledby="page-heading"
        className="bg-gradient-to-b from-brand-50 to-white dark:from-brand-950 dark:to-slate-950 hc:from-white hc:to-white"
      >
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2 lg:py-24">
          <div>
            <p className="font-semibold uppercase tracking-wide ink-brand">{settings.tagline}</p>
            <h1
              id="page-heading"
              className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white"
            >
              {home.hero.heading}
            </h1>
            <p className="mt-5 text-lg text-slate-700 sm:text-xl dark:text-slate-200">{home.hero.subheading}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <CtaLink to="/services">{home.hero.primaryCtaLabel}</CtaLink>
              <CtaLink to="/contact" variant="secondary">
                {home.hero.secondaryCtaLabel}
              </CtaLink>
              <CtaLink to="/start" variant="secondary">
                Start online
              </CtaLink>
            </div>
            <ul className="hero-checks mt-8 flex flex-wrap gap-x-6 gap-y-2 ink-soft" aria-label="Highlights">
              {settings.trustBadges.map((badge) => (
                <li key={badge._key}>
                  <span aria-hidden="true">✓</span>
                  {badge.title}
                </li>
              ))}
            </ul>
          </div>
          {heroImage ? (
            <ResponsiveImage image={heroImage} sizes={HERO_SIZES} priority />
          ) : (
            <QuickFacts settings={settings} />
          )}
        </div>
      </section>

      <PageSection id="trust" heading={home.trustSection.heading} text={home.trustSection.text}>
        <HighlightList items={settings.trustBadges} columns={4} />
      </PageSection>

      <PageSection id="services" heading={home.servicesSection.heading} text={home.servicesSection.text} tone="tinted">
        <ul className="grid gap-6 md:grid-cols-3">
          {featured.map((plan) => (
            <li key={plan._id}>
              <PlanCard plan={plan} learnMoreLabel={learnMoreLabel} />
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to="/services" prefetch="intent" className="more-link">
            {home.pricingLinkLabel}
          </Link>
        </p>
      </PageSection>

      {gallery.pairs.length > 0 ? (
        <PageSection id="gallery" heading={gallery.section.heading} text={gallery.section.text}>
          <BeforeAfterList pairs={gallery.pairs} />
          <p className="mt-8">
            <Link to="/gallery" prefetch="intent" className="more-link">
              {gallery.viewAllLabel}
            </Link>
          </p>
        </PageSection>
      ) : null}

      <div className="mx-auto grid max-w-6xl gap-0 lg:grid-cols-2">
        <PageSection id="areas" heading={home.serviceAreaSection.heading} text={home.serviceAreaSection.text}>
          <ServiceAreaList areas={settings.serviceAreas} />
        </PageSection>
        <PageSection id="hours" heading={home.hoursSection.heading} text={home.hoursSection.text}>
          <BusinessHours hours={settings.hours} />
        </PageSection>
      </div>

      <PageSection id="why" heading={home.whyChoose.heading} tone="tinted">
        <HighlightList items={home.whyChoose.items} columns={2} />
      </PageSection>

      <PageSection id="promises" heading={home.promisesSection.heading} text={home.promisesSection.text}>
        <HighlightList items={settings.promises} columns={3} />
      </PageSection>

      <CtaBanner id="cta" cta={home.cta} to="/contact" />
    </>
  );
}

// The hero picture is the largest element above the fold: fetch it with the document, not after.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...seoMeta(data?.seo),
  ...(data?.heroImage
    ? [
        {
          tagName: "link",
          rel: "preload",
          as: "image",
          href: data.heroImage.src,
          imageSrcSet: data.heroImage.srcSet,
          imageSizes: HERO_SIZES,
          fetchpriority: "high",
        },
      ]
    : []),
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
