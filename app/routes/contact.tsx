import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrowserScript } from "~/components/browser-script";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FaqAccordion } from "~/components/faq-accordion";
import { HighlightList } from "~/components/highlight-list";
import { JsonLd } from "~/components/json-ld";
import { PageHero, PageSection } from "~/components/page-hero";
import { QuoteForm } from "~/features/quotes/quote-form";
import { BusinessHours, ServiceAreaList } from "~/components/service-area";
import { getAddOns, getContactPage, getFaqs, getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import { getSiteUrl, pageSeo } from "~/content/page.server";
import { faqPage, localBusiness, webPage } from "~/content/structured-data";
import { publicCacheHeaders } from "~/content/public-cache.server";
import { PRIVATE_CACHE_CONTROL, publicPageHeaders } from "~/utils/cache-headers";
import { withQuoteActionHeaders } from "~/features/quotes/quote-headers";
import { getQuoteConfirmation, submitQuoteRequest } from "~/features/quotes/quote-submission.server";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { seoMeta } from "~/utils/seo";
import { STATIC_PAGE } from "~/utils/static-page";
import { telHref } from "~/utils/tel";

// No React in the browser (decisions 066, 068): the quote form posts natively and its plain
// script (app/features/quotes/quote-form.browser.ts) adds instant validation and the estimate.
export const handle = STATIC_PAGE;

export async function loader({ request }: LoaderFunctionArgs) {
  const [contact, settings, faqs, serviceOptions, addOns, sent] = await Promise.all([
    getContactPage(),
    getSiteSettings(),
    getFaqs(),
    getQuoteServiceOptions(),
    getAddOns(),
    getQuoteConfirmation(request),
  ]);
  // The success screen (?sent=) belongs to one visitor: never stored by a shared cache.
  const headers = publicCacheHeaders(request);
  if (sent) headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
  const siteUrl = getSiteUrl();
  return json(
    {
      contact,
      settings,
      faqs,
      serviceOptions,
      addOns,
      sent,
      // The success screen has no form; the URL's fragment focuses its heading without script.
      quoteFormScript: sent ? null : browserScriptUrl("quote-form"),
      seo: await pageSeo(contact.seo, "/contact"),
      jsonLd: [
        webPage(
          { type: "ContactPage", name: contact.seo.title, description: contact.seo.description, path: "/contact" },
          siteUrl,
        ),
        localBusiness(settings, siteUrl),
        ...(faqs.length > 0 ? [faqPage(faqs)] : []),
      ],
    },
    { headers },
  );
}

// The quote request: validation, storage, notification and the success redirect live in
// app/utils/quote-submission.server.ts.
export async function action({ request, context }: ActionFunctionArgs) {
  return submitQuoteRequest(request, context);
}

export const headers = withQuoteActionHeaders(publicPageHeaders);

const cardClass =
  "rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900 hc:border-black";

export default function ContactPage() {
  const { contact, settings, faqs, serviceOptions, addOns, sent, quoteFormScript, jsonLd } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <JsonLd data={jsonLd} />
      <PageHero heading={contact.hero.heading} text={contact.hero.text}>
        {/* A home yard can skip the quote: /start prices it and books the first visit (issue 37). */}
        <p className="mt-6">
          <a href="/start" className="btn-outline">
            Start online
          </a>
        </p>
      </PageHero>

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 lg:grid-cols-3">
        <section aria-labelledby="quote-heading" id="quote" className={`${cardClass} lg:col-span-2`}>
          <h2 id="quote-heading" className="text-2xl font-bold ink">
            {contact.quoteForm.heading}
          </h2>
          {contact.quoteForm.intro ? <p className="mt-2 ink-muted">{contact.quoteForm.intro}</p> : null}
          <div className="mt-6">
            <QuoteForm
              serviceOptions={serviceOptions}
              addOns={addOns}
              submitLabel={contact.quoteForm.submitLabel}
              lastResult={actionData?.lastResult}
              focus={actionData?.focus}
              sent={sent}
            />
          </div>
        </section>

        <div className="space-y-6">
          <section className={cardClass}>
            <h2 id="call-heading" className="text-xl font-bold ink">
              {contact.callCard.heading}
            </h2>
            {contact.callCard.text ? <p className="mt-2 ink-muted">{contact.callCard.text}</p> : null}
            <a
              href={telHref(settings.phone)}
              className="mt-4 inline-flex min-h-11 items-center text-2xl font-bold text-brand-800 underline underline-offset-4 dark:text-brand-200"
            >
              {settings.phone}
            </a>
          </section>
          <section className={cardClass}>
            <h2 id="email-heading" className="text-xl font-bold ink">
              {contact.emailCard.heading}
            </h2>
            {contact.emailCard.text ? <p className="mt-2 ink-muted">{contact.emailCard.text}</p> : null}
            <a
              href={`mailto:${settings.email}`}
              className="mt-4 inline-flex min-h-11 items-center break-all text-lg font-bold text-brand-800 underline underline-offset-4 dark:text-brand-200"
            >
              {settings.email}
            </a>
          </section>
          <p className="rounded-2xl bg-brand-50 p-4 font-medium text-brand-900 dark:bg-brand-950 dark:text-brand-100 hc:bg-white hc:text-black">
            {contact.responseTimeNote}
          </p>
        </div>
      </div>

      <div className="mx-auto grid max-w-6xl lg:grid-cols-2">
        <PageSection id="area" heading={contact.serviceAreaSection.heading} text={contact.serviceAreaSection.text}>
          <ServiceAreaList areas={settings.serviceAreas} zipCodes={settings.servedZipCodes} />
        </PageSection>
        <PageSection id="hours" heading={contact.hoursSection.heading} text={contact.hoursSection.text}>
          <BusinessHours hours={settings.hours} />
        </PageSection>
      </div>

      <PageSection id="faq" heading={contact.faqSection.heading} text={contact.faqSection.text} tone="tinted">
        <FaqAccordion faqs={faqs} />
      </PageSection>

      <PageSection id="why" heading={contact.whyChoose.heading}>
        <HighlightList items={contact.whyChoose.items} columns={2} />
      </PageSection>
      <BrowserScript src={quoteFormScript} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
