import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CtaBanner } from "~/components/cta-banner";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { JsonLd } from "~/components/json-ld";
import { PageHero, PageSection } from "~/components/page-hero";
import { PlanCard } from "~/components/plan-card";
import { getAddOns, getCatalogue, getServicesPage, getSiteSettings } from "~/content/content.server";
import { resolveImage } from "~/content/images.server";
import { getSiteUrl, pageSeo } from "~/content/page.server";
import { describeTier, formatMonthlyExtra } from "~/content/pricing";
import { breadcrumbs, localBusiness } from "~/content/structured-data";
import type { PlanCard as Plan } from "~/content/types";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { publicPageHeaders } from "~/utils/cache-headers";
import { seoMeta } from "~/utils/seo";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request }: LoaderFunctionArgs) {
  const [page, catalogue, addOns, settings] = await Promise.all([
    getServicesPage(),
    getCatalogue(),
    getAddOns(),
    getSiteSettings(),
  ]);
  const siteUrl = getSiteUrl();
  const withImages = catalogue.map((plan) => ({
    plan,
    image: resolveImage(plan.image, { maxWidth: 480, aspectRatio: 3 / 2 }),
  }));
  return json(
    {
      page,
      subscriptions: withImages.filter(({ plan }) => plan.kind === "subscription"),
      oneTime: withImages.filter(({ plan }) => plan.kind === "one-time"),
      addOns,
      seo: await pageSeo(page.seo, "/services"),
      jsonLd: [
        localBusiness(settings, siteUrl, catalogue),
        breadcrumbs(
          [
            { name: "Home", path: "/" },
            { name: page.hero.heading, path: "/services" },
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

function PlanGrid({
  plans,
  learnMoreLabel,
}: {
  plans: { plan: Plan; image: ReturnType<typeof resolveImage> }[];
  learnMoreLabel: string;
}) {
  return (
    <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {plans.map(({ plan, image }) => (
        <li key={plan._id}>
          <PlanCard plan={plan} image={image} learnMoreLabel={learnMoreLabel} />
        </li>
      ))}
    </ul>
  );
}

export default function ServicesPage() {
  const { page, subscriptions, oneTime, addOns, jsonLd } = useLoaderData<typeof loader>();
  return (
    <>
      <JsonLd data={jsonLd} />
      <PageHero heading={page.hero.heading} text={page.hero.text} />
      {subscriptions.length > 0 ? (
        <PageSection id="subscriptions" heading={page.subscriptionsHeading}>
          <PlanGrid plans={subscriptions} learnMoreLabel={page.learnMoreLabel} />
        </PageSection>
      ) : null}
      {addOns.length > 0 ? (
        <PageSection id="add-ons" heading={page.addOnsSection.heading} text={page.addOnsSection.text} tone="tinted">
          <ul className="grid gap-6 md:grid-cols-2">
            {addOns.map((addOn) => (
              <li
                key={addOn._id}
                className="rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-700 dark:bg-slate-900 hc:border-black"
              >
                <h3 className="text-xl font-bold ink">{addOn.name}</h3>
                <p className="mt-2 ink-muted">{addOn.description}</p>
                <dl className="mt-4 space-y-2">
                  {addOn.tiers.map((tier) => (
                    <div
                      key={tier._key}
                      className="flex justify-between gap-4 border-b border-slate-200 pb-2 dark:border-slate-700"
                    >
                      <dt className="ink-soft">{describeTier(addOn, tier.minDogs)}</dt>
                      <dd className="font-semibold ink-brand">{formatMonthlyExtra(tier.monthlyAmount)}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </PageSection>
      ) : null}
      {oneTime.length > 0 ? (
        <PageSection id="one-time" heading={page.oneTimeHeading}>
          <PlanGrid plans={oneTime} learnMoreLabel={page.learnMoreLabel} />
        </PageSection>
      ) : null}
      <CtaBanner id="cta" cta={page.cta} to="/contact" />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
