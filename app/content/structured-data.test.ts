import path from "node:path";
import { describe, expect, test } from "vitest";
import { createContentStore, createDatasetSource, DEFAULT_DATASET_PATH } from "./content.server";
import { faqPage, internationalPhone, localBusiness, priceSpecification, serviceDetail } from "./structured-data";

const SITE = "https://www.example.com";
const store = createContentStore({ source: createDatasetSource(path.resolve(DEFAULT_DATASET_PATH)) });

describe("structured data", () => {
  test("the local business carries region, areas, hours, phone and every plan's price", async () => {
    const [settings, plans] = await Promise.all([store.getSiteSettings(), store.getCatalogue()]);
    const business = localBusiness(settings, SITE, plans);
    expect(business).toMatchObject({
      "@type": "LocalBusiness",
      name: settings.businessName,
      telephone: internationalPhone(settings.phone),
      address: { addressRegion: settings.address.region, addressLocality: settings.address.locality },
      openingHoursSpecification: [{ dayOfWeek: settings.hours.days, opens: "08:00", closes: "17:00" }],
    });
    expect(business.areaServed).toHaveLength(settings.serviceAreas.length);
    const offers = (business.hasOfferCatalog as { itemListElement: { price: number; url: string }[] }).itemListElement;
    expect(offers.map((offer) => [offer.url, offer.price])).toEqual(
      plans.map((plan) => [`${SITE}/services/${plan.slug}`, plan.price.amount]),
    );
  });

  test("a service page's offer is its plan's price", async () => {
    const [settings, plan] = await Promise.all([store.getSiteSettings(), store.getPlan("trash-bin-clean")]);
    if (!plan) throw new Error("missing plan");
    expect(serviceDetail(plan, settings, SITE).offers).toMatchObject({
      price: plan.price.amount,
      priceCurrency: "USD",
      priceSpecification: { "@type": "UnitPriceSpecification", unitText: "bin" },
    });
  });

  test("a service page's provider carries the business's address and phone", async () => {
    const [settings, plan] = await Promise.all([store.getSiteSettings(), store.getPlan("weekly")]);
    if (!plan) throw new Error("missing plan");
    expect(serviceDetail(plan, settings, SITE).provider).toMatchObject({
      "@type": "LocalBusiness",
      name: settings.businessName,
      telephone: internationalPhone(settings.phone),
      address: {
        "@type": "PostalAddress",
        addressLocality: settings.address.locality,
        addressRegion: settings.address.region,
        postalCode: settings.address.postalCode,
      },
    });
  });

  test('a "from" price is a minimum price', () => {
    expect(priceSpecification({ amount: 250, unit: "from" })).toEqual({
      "@type": "PriceSpecification",
      priceCurrency: "USD",
      minPrice: 250,
    });
  });

  test("FAQPage has every question with its answer", async () => {
    const faqs = await store.getFaqs();
    const page = faqPage(faqs);
    expect(page.mainEntity).toHaveLength(faqs.length);
    expect(page.mainEntity).toContainEqual({
      "@type": "Question",
      name: faqs[0].question,
      acceptedAnswer: { "@type": "Answer", text: faqs[0].answer },
    });
  });

  test("phone numbers are written internationally", () => {
    expect(internationalPhone("(775) 555-0142")).toBe("+1-775-555-0142");
    expect(internationalPhone("+1 775 555 0142")).toBe("+1-775-555-0142");
  });
});
