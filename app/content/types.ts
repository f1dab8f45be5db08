import { z } from "zod";

/**
 * The shape of every query result in queries.ts. Content is checked here, where it enters the
 * app, so a page never renders half a document. GROQ returns null for a missing field, hence
 * `.nullable()` for everything the studio does not require.
 */

const text = z.string().trim().min(1);
const optionalText = z.string().nullable();

export const seoSchema = z.object({ title: text, description: text });

export const imageSchema = z
  .object({
    asset: z.object({ _ref: z.string(), _type: z.literal("reference").optional() }).nullable(),
    alt: optionalText,
    hotspot: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable(),
    crop: z.object({ top: z.number(), bottom: z.number(), left: z.number(), right: z.number() }).nullable(),
  })
  .nullable();

const spanSchema = z.object({
  _type: z.literal("span"),
  _key: z.string(),
  text: z.string(),
  marks: z.array(z.string()).optional(),
});

/** An inline object inside a line of text, e.g. a Site setting value (siteSettingRef). */
const inlineObjectSchema = z.object({ _type: z.string(), _key: z.string() }).passthrough();

const markDefSchema = z.object({ _type: z.string(), _key: z.string(), href: z.string().optional() }).passthrough();

const blockSchema = z.object({
  _type: z.literal("block"),
  _key: z.string(),
  style: z.string().optional(),
  listItem: z.string().optional(),
  level: z.number().optional(),
  children: z.array(z.union([spanSchema, inlineObjectSchema])),
  markDefs: z.array(markDefSchema).optional(),
});

/** Portable Text: text blocks, plus any custom block type the studio may add later. */
export const portableTextSchema = z
  .array(z.union([blockSchema, z.object({ _type: z.string(), _key: z.string() }).passthrough()]))
  .min(1);

export const highlightSchema = z.object({ _key: z.string(), title: text, text: optionalText });
export const sectionSchema = z.object({ heading: text, text: optionalText });
export const callToActionSchema = z.object({ heading: text, text: optionalText, buttonLabel: text });
const whyChooseSchema = z.object({ heading: text, items: z.array(highlightSchema).min(1) });

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const time = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/);

/** The completed visits before the review request when the owner has not said (issue 37 item 4). */
export const DEFAULT_REVIEW_AFTER_VISITS = 3;

export const siteSettingsSchema = z.object({
  businessName: text,
  tagline: text,
  phone: text,
  email: z.string().email(),
  hours: z.object({ days: z.array(z.enum(WEEKDAYS)).min(1), opens: time, closes: time, display: text }),
  address: z.object({ locality: text, region: text, postalCode: z.string().regex(/^\d{5}$/), country: text }),
  serviceAreas: z.array(text).min(1),
  servedZipCodes: z.array(z.string().regex(/^\d{5}$/)),
  promises: z.array(highlightSchema),
  trustBadges: z.array(highlightSchema),
  social: z
    .object({
      facebook: z.string().url().nullable(),
      instagram: z.string().url().nullable(),
      tiktok: z.string().url().nullable(),
      youtube: z.string().url().nullable(),
    })
    .nullable(),
  bookingCalendarUrl: z.string().url(),
  /** Calendar event type -> visit type, for bookings that arrive by webhook; absent means none. */
  bookingServiceTypes: z
    .array(z.object({ eventType: text, serviceType: text }))
    .nullable()
    .optional(),
  planRules: z.object({
    changeNoticeHours: z.number().int().min(0).max(168),
    longestPauseDays: z.number().int().min(1).max(365),
    horizonDays: z.number().int().min(7).max(90),
    firstVisitTime: time,
    closedDays: z
      .array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), name: text }))
      .nullable()
      .transform((days) => days ?? []),
  }),
  billingRules: z.object({
    billingDay: z.number().int().min(1).max(28),
    prorateFirstMonth: z.boolean(),
    creditSkippedVisits: z.boolean(),
    graceDays: z.number().int().min(0).max(60),
    /** The Terms' notice before a catalogue price change applies to existing plans (decision 116). */
    priceChangeNoticeDays: z.number().int().min(0).max(120),
    invoiceFooter: z.string().max(500),
  }),
  /**
   * The one e-mail that asks a happy customer for a review (decision 133). No link: no request.
   * Absent in a dataset made before it (a preview of an old draft): no request either.
   */
  reviewRequests: z
    .object({
      reviewUrl: z.string().url().nullable(),
      afterCompletedVisits: z.number().int().min(1).max(100).nullable(),
    })
    .nullable()
    .optional()
    .transform((rules) => ({
      reviewUrl: rules?.reviewUrl ?? null,
      afterCompletedVisits: rules?.afterCompletedVisits ?? DEFAULT_REVIEW_AFTER_VISITS,
    })),
  /**
   * Tips for technicians (Site settings > Billing, docs/decisions/131): the amounts the completion
   * e-mail offers, in whole dollars, and the first day of a two-week pay period. Absent: no tips.
   */
  tips: z
    .object({
      amounts: z.array(z.number().int().min(1).max(500)).min(1).max(6),
      payPeriodStart: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    })
    .nullable()
    .optional()
    .transform((tips) => tips ?? null),
  /** The online sign-up (/start); null keeps it closed. */
  signUp: z
    .object({
      areas: z
        .array(
          z.object({
            name: text,
            zipCodes: z.array(z.string().regex(/^\d{5}$/)).min(1),
            serviceDays: z.array(z.enum(WEEKDAYS)).min(1),
          }),
        )
        .min(1),
      sameDayCutoff: time,
      dailyVisitCapacity: z.number().int().min(1).max(1000),
      initialCleans: z
        .array(z.object({ answer: z.string().regex(/^[a-z0-9-]{1,40}$/), label: text, amount: z.number().min(0) }))
        .min(1),
    })
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  seo: seoSchema,
});

/** The owner's tips settings (null: tips are not offered). */
export type TipSettings = z.infer<typeof siteSettingsSchema>["tips"];

/** What the online sign-up offers (Site settings > Start online); null: /start is closed. */
export type SignUpSettings = NonNullable<z.infer<typeof siteSettingsSchema>["signUp"]>;

/** The owner's rules for customer plans (Site settings > Plans & schedule). */
export type PlanRules = z.infer<typeof siteSettingsSchema>["planRules"];

/** The owner's review request (Site settings > Links > Review requests, decision 133). */
export type ReviewRequestRules = z.infer<typeof siteSettingsSchema>["reviewRequests"];

/** The owner's rules for invoices (Site settings > Billing, docs/decisions/100). */
export type BillingRules = z.infer<typeof siteSettingsSchema>["billingRules"];

/**
 * Today's route (Site settings > Route, and each catalogue plan's minutes; docs/decisions/093).
 * Start and timing are null until the owner sets them: Today then lists the day by time.
 */
export const routeSettingsSchema = z.object({
  start: z
    .object({ name: text, latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullable(),
  timing: z
    .object({
      circuityFactor: z.number().min(1).max(3),
      averageSpeedMph: z.number().min(5).max(80),
      defaultServiceMinutes: z.number().int().min(1).max(480),
      minutesPerExtraDog: z.number().int().min(0).max(60),
    })
    .nullable(),
  planMinutes: z.array(z.object({ _id: z.string(), serviceMinutes: z.number().int().min(1).max(480) })),
});
export type RouteSettings = z.infer<typeof routeSettingsSchema>;

export const PRICE_UNITS = ["month", "one-time", "per-bin", "from"] as const;
export const priceSchema = z.object({ amount: z.number().positive(), unit: z.enum(PRICE_UNITS) });

export const planCardSchema = z.object({
  _id: z.string(),
  name: text,
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  kind: z.enum(["subscription", "one-time"]),
  /** Subscriptions: visits a week; null for a one-time visit (it cannot be a customer plan). */
  visitsPerWeek: z.number().int().min(1).max(5).nullable(),
  price: priceSchema,
  shortDescription: text,
  features: z.array(text).min(1),
  popular: z.boolean(),
  badge: optionalText,
  order: z.number(),
  image: imageSchema,
});

export const planSchema = planCardSchema.extend({
  detailHeadline: text,
  detailBody: portableTextSchema,
  ctaLabel: text,
  seo: seoSchema,
});

export const catalogueSchema = z.array(planCardSchema);

export const addOnSchema = z.object({
  _id: z.string(),
  name: text,
  slug: z.string(),
  description: text,
  tiers: z
    .array(z.object({ _key: z.string(), minDogs: z.number().int().min(2), monthlyAmount: z.number().positive() }))
    .min(1),
});
export const addOnsSchema = z.array(addOnSchema);

export const faqSchema = z.object({ _id: z.string(), question: text, answer: text });
export const faqsSchema = z.array(faqSchema);

export const homePageSchema = z.object({
  hero: z.object({
    heading: text,
    subheading: text,
    primaryCtaLabel: text,
    secondaryCtaLabel: text,
    image: imageSchema,
  }),
  trustSection: sectionSchema,
  serviceAreaSection: sectionSchema,
  hoursSection: sectionSchema,
  servicesSection: sectionSchema,
  pricingLinkLabel: text,
  whyChoose: whyChooseSchema,
  promisesSection: sectionSchema,
  cta: callToActionSchema,
  seo: seoSchema,
});

export const servicesPageSchema = z.object({
  hero: sectionSchema,
  subscriptionsHeading: text,
  oneTimeHeading: text,
  learnMoreLabel: text,
  addOnsSection: sectionSchema,
  cta: callToActionSchema,
  seo: seoSchema,
});

export const aboutPageSchema = z.object({
  hero: sectionSchema,
  whoWeAre: z.object({ heading: text, body: portableTextSchema, image: imageSchema }),
  promise: sectionSchema,
  whyChoose: whyChooseSchema,
  serviceArea: sectionSchema,
  guarantee: sectionSchema,
  cta: callToActionSchema,
  seo: seoSchema,
});

export const contactPageSchema = z.object({
  hero: sectionSchema,
  quoteForm: z.object({ heading: text, intro: optionalText, submitLabel: text }),
  callCard: sectionSchema,
  emailCard: sectionSchema,
  responseTimeNote: text,
  serviceAreaSection: sectionSchema,
  hoursSection: sectionSchema,
  faqSection: sectionSchema,
  whyChoose: whyChooseSchema,
  seo: seoSchema,
});

export const legalPageSchema = z.object({
  title: text,
  slug: z.string(),
  lastUpdated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  body: portableTextSchema,
  seo: seoSchema,
});

export const quoteServiceOptionSchema = z.object({
  _id: z.string(),
  value: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  label: text,
  plan: z
    .object({ name: text, slug: z.string(), kind: z.enum(["subscription", "one-time"]), price: priceSchema })
    .nullable(),
});
export const quoteServiceOptionsSchema = z.array(quoteServiceOptionSchema);

export const galleryPageSchema = z.object({
  hero: sectionSchema,
  homeSection: sectionSchema,
  viewAllLabel: text,
  emptyText: text,
  seo: seoSchema,
});

export const beforeAfterSchema = z.object({
  _id: z.string(),
  caption: text,
  neighbourhood: text,
  service: z.object({ name: text, slug: z.string() }).nullable(),
  before: imageSchema,
  after: imageSchema,
});
export const beforeAfterListSchema = z.array(beforeAfterSchema);

const datedSlug = z.object({ slug: z.string(), _updatedAt: z.string() });
export const sitemapSchema = z.object({
  pages: z.array(z.object({ _id: z.string(), _updatedAt: z.string() })),
  plans: z.array(datedSlug),
  legalPages: z.array(datedSlug),
});

export type Seo = z.infer<typeof seoSchema>;
export type SanityImage = z.infer<typeof imageSchema>;
export type PortableTextBody = z.infer<typeof portableTextSchema>;
export type Highlight = z.infer<typeof highlightSchema>;
export type Section = z.infer<typeof sectionSchema>;
export type CallToAction = z.infer<typeof callToActionSchema>;
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
export type Price = z.infer<typeof priceSchema>;
export type PriceUnit = Price["unit"];
export type PlanCard = z.infer<typeof planCardSchema>;
export type Plan = z.infer<typeof planSchema>;
export type AddOn = z.infer<typeof addOnSchema>;
export type Faq = z.infer<typeof faqSchema>;
export type HomePage = z.infer<typeof homePageSchema>;
export type ServicesPage = z.infer<typeof servicesPageSchema>;
export type AboutPage = z.infer<typeof aboutPageSchema>;
export type ContactPage = z.infer<typeof contactPageSchema>;
export type LegalPage = z.infer<typeof legalPageSchema>;
export type QuoteServiceOption = z.infer<typeof quoteServiceOptionSchema>;
export type GalleryPage = z.infer<typeof galleryPageSchema>;
export type BeforeAfter = z.infer<typeof beforeAfterSchema>;
export type SitemapContent = z.infer<typeof sitemapSchema>;
export type SitemapEntry = { path: string; lastModified: string };
