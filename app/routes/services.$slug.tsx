import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CtaLink } from "~/components/cta-link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JsonLd } from "~/components/json-ld";
import { PopularBadge } from "~/components/plan-card";
import { RichText } from "~/components/portable-text";
import { PriceTag } from "~/components/price-tag";
import { ResponsiveImage } from "~/components/responsive-image";
import { getAddOns, getPlan, getServicesPage, getSiteSettings } from "~/content/content.server";
import { resolveImage } from "~/content/images.server";
import { getSiteUrl, pageSeo } from "~/content/page.server";
import { describeTier, formatMonthlyExtra } from "~/content/pricing";
import { breadcrumbs, serviceDetail } from "~/content/structured-data";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { publicPageHeaders } from "~/utils/cache-headers";
import { log } from "~/utils/logger.server";
import { seoMeta } from "~/utils/seo";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const plan = /^[a-z0-9-]{1,80}$/.test(slug) ? await getPlan(slug) : null;
  if (!plan) {
    log.warn("http.not_found", { method: request.method, path: new URL(request.url).pathname });
    throw new Response("Not Found", { status: 404 });
  }
  const [settings, servicesPage, addOns] = await Promise.all([getSiteSettings(), getServicesPage(), getAddOns()]);
  const siteUrl = getSiteUrl();
  const path = `/services/${plan.slug}`;
  return json(
    {
      plan,
      servicesHeading: servicesPage.hero.heading,
      addOnsSection: servicesPage.addOnsSection,
      // Add-ons are monthly surcharges: they only concern plans billed by the month.
      addOns: plan.price.unit === "month" ? addOns : [],
      image: resolveImage(plan.image, { maxWidth: 640, aspectRatio: 3 / 2 }),
      seo: await pageSeo(plan.seo, path),
      jsonLd: [
        serviceDetail(plan, settings, siteUrl),
        breadcrumbs(
          [
            { name: "Home", path: "/" },
            { name: servicesPage.hero.heading, path: "/services" },
            { name: plan.name, path },
          ],
          siteUrl,
        ),
      ],
    },
    { headers: publicCacheHeaders(request) },
  );
}

// A static page: no React in the browser for an anonymous visit (decision 066).
export const handle = STATIC_PAGE;

export const headers = publicPageHeaders;

export default function ServiceDetailPage() {
  const { plan, servicesHeading, addOnsSection, addOns, image, jsonLd } = useLoaderData<typeof loader>();
  return (
    <>
      <JsonLd data={jsonLd} />
      <section
        aria-labelledby="page-heading"
        className="bg-gradient-to-b from-brand-50 to-white dark:from-brand-950 dark:to-slate-950 hc:from-white hc:to-white"
      >
        <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
          <nav aria-label="Breadcrumb">
            <ol className="flex flex-wrap gap-2 ink-muted">
              <li>
                <Link to="/" className="underline underline-offset-4 hover:text-brand-800 dark:hover:text-white">
                  Home
                </Link>
                <span aria-hidden="true" className="ml-2">
                  /
                </span>
              </li>
              <li>
                <Link
                  to="/services"
                  className="underline underline-offset-4 hover:text-brand-800 dark:hover:text-white"
                >
                  {servicesHeading}
                </Link>
                <span aria-hidden="true" className="ml-2">
                  /
                </span>
              </li>
              <li aria-current="page">{plan.name}</li>
            </ol>
          </nav>
          <div className="mt-6 grid items-start gap-10 lg:grid-cols-2">
            <div>
              {plan.popular && plan.badge ? <PopularBadge text={plan.badge} /> : null}
              <h1
                id="page-heading"
                className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white"
              >
                {plan.name}
              </h1>
              <p className="mt-4 text-xl ink-soft">{plan.detailHeadline}</p>
              <div className="mt-6">
                <PriceTag price={plan.price} size="lg" />
              </div>
              <p className="mt-4 text-lg ink-muted">{plan.shortDescription}</p>
              <div className="mt-8 flex flex-wrap gap-3">
                <CtaLink to="/contact">{plan.ctaLabel}</CtaLink>
                {plan.visitsPerWeek !== null && plan.price.unit === "month" ? (
                  <CtaLink to="/start" variant="secondary">
                    Start online
                  </CtaLink>
                ) : null}
                <CtaLink to="/services" variant="secondary">
                  View All Services
                </CtaLink>
              </div>
            </div>
            {image ? <ResponsiveImage image={image} sizes="(min-width: 1024px) 36rem, 100vw" priority /> : null}
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 lg:grid-cols-3">
        <section className="lg:order-2">
          <div className="rounded-2xl border border-slate-200 bg-sand-50 p-6 dark:border-slate-700 dark:bg-slate-900 hc:border-black hc:bg-white">
            <h2 id="included-heading" className="text-2xl font-bold ink">
              What’s included
            </h2>
            <ul className="check-list mt-4 space-y-3 text-lg ink-soft">
              {plan.features.map((feature) => (
                <li key={feature}>
                  <span aria-hidden="true">✓</span>
                  {feature}
                </li>
              ))}
            </ul>
          </div>
          {addOns.map((addOn) => (
            <div
              key={addOn._id}
              className="mt-6 rounded-2xl border border-slate-200 p-6 dark:border-slate-700 hc:border-black"
            >
              <h2 className="text-xl font-bold ink">{addOnsSection.heading}</h2>
              <p className="mt-2 ink-muted">{addOn.description}</p>
              <dl className="mt-3 space-y-1">
                {addOn.tiers.map((tier) => (
                  <div key={tier._key} className="flex justify-between gap-4">
                    <dt className="ink-soft">{describeTier(addOn, tier.minDogs)}</dt>
                    <dd className="font-semibold ink-brand">{formatMonthlyExtra(tier.monthlyAmount)}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </section>
        <div className="lg:order-1 lg:col-span-2">
          <RichText value={plan.detailBody} />
        </div>
      </div>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
