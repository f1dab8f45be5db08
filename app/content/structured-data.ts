import type { Faq, LegalPage, Plan, PlanCard, Price, SiteSettings } from "./types";

/**
 * schema.org JSON-LD built from content. Prices come from the same `price` field the pages
 * print, so a page and its structured data can never disagree.
 */

type JsonLd = Record<string, unknown>;

const absolute = (siteUrl: string, path: string) => new URL(path, siteUrl).toString();
export const businessId = (siteUrl: string) => absolute(siteUrl, "/#business");

/** "(775) 555-0142" → "+1-775-555-0142", the form schema.org and Google expect. */
export function internationalPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  if (national.length !== 10) return phone;
  return `+1-${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`;
}

export function priceSpecification(price: Price): JsonLd {
  const base = { priceCurrency: "USD" };
  switch (price.unit) {
    case "month":
      return {
        "@type": "UnitPriceSpecification",
        ...base,
        price: price.amount,
        unitCode: "MON",
        unitText: "month",
      };
    case "per-bin":
      return { "@type": "UnitPriceSpecification", ...base, price: price.amount, unitText: "bin" };
    case "from":
      return { "@type": "PriceSpecification", ...base, minPrice: price.amount };
    case "one-time":
      return { "@type": "PriceSpecification", ...base, price: price.amount };
  }
}

export function offerFor(plan: PlanCard, siteUrl: string): JsonLd {
  const url = absolute(siteUrl, `/services/${plan.slug}`);
  return {
    "@type": "Offer",
    url,
    price: plan.price.amount,
    priceCurrency: "USD",
    // A one-time price's specification only repeats price and currency (decision 067: the home
    // page's HTML budget); the unit of a monthly, per-bin or "from" price is information.
    ...(plan.price.unit === "one-time" ? {} : { priceSpecification: priceSpecification(plan.price) }),
    availability: "https://schema.org/InStock",
    // The service's description and URL are on its own page (its Service node): here its name.
    itemOffered: { "@type": "Service", name: plan.name },
  };
}

export function offerCatalog(plans: PlanCard[], siteUrl: string, name: string): JsonLd {
  return {
    "@type": "OfferCatalog",
    name,
    itemListElement: plans.map((plan) => offerFor(plan, siteUrl)),
  };
}

function postalAddress(settings: SiteSettings) {
  return {
    "@type": "PostalAddress",
    addressLocality: settings.address.locality,
    addressRegion: settings.address.region,
    postalCode: settings.address.postalCode,
    addressCountry: settings.address.country,
  };
}

export function localBusiness(settings: SiteSettings, siteUrl: string, plans?: PlanCard[]): JsonLd {
  const sameAs = Object.values(settings.social ?? {}).filter((url): url is string => Boolean(url));
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": businessId(siteUrl),
    name: settings.businessName,
    description: settings.tagline,
    url: absolute(siteUrl, "/"),
    logo: absolute(siteUrl, "/favicon.svg"),
    image: absolute(siteUrl, "/favicon.svg"),
    telephone: internationalPhone(settings.phone),
    email: settings.email,
    address: postalAddress(settings),
    areaServed: settings.serviceAreas.map((name) => ({ "@type": "City", name })),
    openingHoursSpecification: [
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: settings.hours.days,
        opens: settings.hours.opens,
        closes: settings.hours.closes,
      },
    ],
    ...(sameAs.length > 0 ? { sameAs } : {}),
    ...(plans && plans.length > 0 ? { hasOfferCatalog: offerCatalog(plans, siteUrl, "Services") } : {}),
  };
}

export function serviceDetail(plan: Plan, settings: SiteSettings, siteUrl: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "Service",
    name: plan.name,
    description: plan.shortDescription,
    url: absolute(siteUrl, `/services/${plan.slug}`),
    serviceType: plan.kind === "subscription" ? "Recurring pet waste removal" : "One-time service",
    areaServed: settings.serviceAreas.map((name) => ({ "@type": "City", name })),
    // A LocalBusiness without an address is invalid for validators, even when its @id points
    // at the full one on the home page.
    provider: {
      "@type": "LocalBusiness",
      "@id": businessId(siteUrl),
      name: settings.businessName,
      address: postalAddress(settings),
      telephone: internationalPhone(settings.phone),
    },
    offers: offerFor(plan, siteUrl),
  };
}

export function breadcrumbs(items: { name: string; path: string }[], siteUrl: string): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: item.name,
      item: absolute(siteUrl, item.path),
    })),
  };
}

export function faqPage(faqs: Faq[]): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: faqs.map((faq) => ({
      "@type": "Question",
      name: faq.question,
      acceptedAnswer: { "@type": "Answer", text: faq.answer },
    })),
  };
}

export function webPage(
  page: {
    type?: "WebPage" | "AboutPage" | "ContactPage" | "CollectionPage";
    name: string;
    description: string;
    path: string;
  },
  siteUrl: string,
  extra: JsonLd = {},
): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": page.type ?? "WebPage",
    name: page.name,
    description: page.description,
    url: absolute(siteUrl, page.path),
    publisher: { "@id": businessId(siteUrl) },
    ...extra,
  };
}

export function legalWebPage(page: LegalPage, siteUrl: string): JsonLd {
  return webPage({ name: page.title, description: page.seo.description, path: `/${page.slug}` }, siteUrl, {
    dateModified: page.lastUpdated,
  });
}
