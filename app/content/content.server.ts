import { statSync } from "node:fs";
import path from "node:path";
import { createClient } from "@sanity/client";
import { evaluate, parse } from "groq-js";
import type { z } from "zod";
import {
  ABOUT_PAGE_QUERY,
  ADD_ONS_QUERY,
  BEFORE_AFTER_QUERY,
  CATALOGUE_QUERY,
  CONTACT_PAGE_QUERY,
  FAQS_QUERY,
  GALLERY_PAGE_QUERY,
  HOME_PAGE_QUERY,
  LEGAL_PAGE_QUERY,
  PLAN_BY_SLUG_QUERY,
  QUOTE_SERVICE_OPTIONS_QUERY,
  ROUTE_SETTINGS_QUERY,
  SERVICES_PAGE_QUERY,
  SITE_SETTINGS_QUERY,
  SITEMAP_QUERY,
} from "./queries";
import { getEnv, SANITY_API_VERSION } from "~/utils/env.server";
import { readDatasetArchive, type DatasetArchive } from "./dataset-archive.server";
import { currentRequestContext } from "./request-context.server";
import { createSwrCache } from "./swr-cache";
import {
  aboutPageSchema,
  addOnsSchema,
  beforeAfterListSchema,
  catalogueSchema,
  contactPageSchema,
  faqsSchema,
  galleryPageSchema,
  homePageSchema,
  legalPageSchema,
  planSchema,
  quoteServiceOptionsSchema,
  routeSettingsSchema,
  servicesPageSchema,
  siteSettingsSchema,
  sitemapSchema,
  type SitemapEntry,
} from "./types";

// The pinned API version is env.server.ts's default for SANITY_API_VERSION; tests read it here.
export { SANITY_API_VERSION };

/** The bundled dataset, as `sanity dataset export` writes it: data.ndjson and images/ in a .tar.gz. */
export const DEFAULT_DATASET_PATH = "studio/data/production.tar.gz";

const DEFAULT_FRESH_MS = 60_000;

export type QueryParams = Record<string, string | number | boolean>;

/** Where content comes from: Sanity's Content Lake or the bundled NDJSON file. */
export type ContentSource = {
  kind: "sanity" | "dataset";
  fetch(query: string, params: QueryParams): Promise<unknown>;
};

export type SanitySourceOptions = {
  projectId: string;
  dataset: string;
  apiHost?: string;
  apiVersion?: string;
  useCdn?: boolean;
  /** Drafts instead of published documents: needs `token`, never uses the CDN. */
  drafts?: { token: string; studioUrl?: string };
};

/**
 * Fields whose text visual editing may tag (invisible characters that point the overlay at the
 * field in the Studio). Only display text: never slugs, prices, e-mails, URLs or enum values,
 * which the app compares or validates.
 */
const EDITABLE_TEXT_FIELDS = new Set([
  "heading",
  "subheading",
  "text",
  "caption",
  "title",
  "question",
  "answer",
  "shortDescription",
  "description",
  "detailHeadline",
  "tagline",
  "intro",
  "name",
  "label",
  "responseTimeNote",
  "features",
  "buttonLabel",
  "neighbourhood",
  "emptyText",
]);

export function createSanitySource({
  projectId,
  dataset,
  apiHost,
  apiVersion = SANITY_API_VERSION,
  useCdn = true,
  drafts,
}: SanitySourceOptions): ContentSource {
  const client = createClient({
    projectId,
    dataset,
    apiVersion,
    useCdn: drafts ? false : useCdn,
    perspective: drafts ? "drafts" : "published",
    ...(drafts
      ? {
          token: drafts.token,
          stega: {
            enabled: Boolean(drafts.studioUrl),
            studioUrl: drafts.studioUrl,
            filter: (props) => {
              const path = props.sourcePath.filter((segment): segment is string => typeof segment === "string");
              const field = path.at(-1);
              return (
                props.filterDefault(props) &&
                !path.includes("seo") &&
                field !== undefined &&
                EDITABLE_TEXT_FIELDS.has(field)
              );
            },
          },
        }
      : {}),
    timeout: 10_000,
    maxRetries: 2,
    // A custom host (tests, a proxy) is used as is; otherwise the client would prefix it with
    // the project id: http://<projectId>.127.0.0.1:PORT.
    ...(apiHost ? { apiHost, useProjectHostname: false } : {}),
  });
  return {
    kind: "sanity",
    // Right after a publish the CDN may still answer with the old document; the API never does.
    fetch: (query, params) => client.fetch<unknown>(query, params, { useCdn: useCdn && !readingFromOrigin() }),
  };
}

let originUntil = 0;

/** For the next `ms`, Sanity queries skip the CDN (called on every machine after a publish). */
export function readFromOriginFor(ms: number) {
  originUntil = Math.max(originUntil, Date.now() + ms);
}

/** Whether a publish was announced recently enough that the CDN may still be stale. */
export function readingFromOrigin(now = Date.now()) {
  return now < originUntil;
}

/** Drafts, release versions and system documents are not part of the published perspective. */
function isPublished(doc: unknown): boolean {
  if (typeof doc !== "object" || doc === null || !("_id" in doc)) return false;
  const id = doc._id;
  return typeof id === "string" && !/^(?:drafts|versions|_)\./.test(id);
}

const archives = new Map<string, { modified: number; archive: DatasetArchive }>();

/** The archive at `filePath`, read again only when the file changes (it is small: kept in memory). */
export function loadDatasetArchive(filePath: string): DatasetArchive {
  const modified = statSync(filePath).mtimeMs;
  const cached = archives.get(filePath);
  if (cached?.modified === modified) return cached.archive;
  const archive = readDatasetArchive(filePath);
  if (archive.missingAssets.length > 0) {
    throw new Error(`${filePath} refers to files it does not hold: ${archive.missingAssets.join(", ")}`);
  }
  archives.set(filePath, { modified, archive });
  return archive;
}

/** The published documents of a dataset export (.tar.gz, or .ndjson with images/ beside it). */
export async function readDataset(filePath: string): Promise<unknown[]> {
  return loadDatasetArchive(filePath).documents.filter(isPublished);
}

/** Runs GROQ in-process with groq-js over a dataset export, read once on first use. */
export function createDatasetSource(filePath: string): ContentSource {
  let documents: Promise<unknown[]> | undefined;
  const load = () => {
    documents ??= readDataset(filePath).catch((error: unknown) => {
      documents = undefined;
      throw error;
    });
    return documents;
  };
  return {
    kind: "dataset",
    async fetch(query, params) {
      const dataset = await load();
      const value = await evaluate(parse(query, { params }), { dataset, params });
      return value.get();
    },
  };
}

type ContentEnv = {
  projectId?: string;
  dataset?: string;
  apiHost?: string;
  apiVersion?: string;
  useCdn?: boolean;
  datasetPath: string;
  freshMs: number;
};

export function readContentEnv(): ContentEnv {
  const env = getEnv();
  return {
    projectId: env.SANITY_PROJECT_ID,
    dataset: env.SANITY_DATASET,
    apiHost: env.SANITY_API_HOST,
    apiVersion: env.SANITY_API_VERSION,
    useCdn: env.SANITY_USE_CDN,
    datasetPath: path.resolve(env.CONTENT_DATASET_PATH || DEFAULT_DATASET_PATH),
    freshMs: env.CONTENT_CACHE_SECONDS * 1000,
  };
}

export function createSourceFromEnv(env: ContentEnv = readContentEnv()): ContentSource {
  if (env.projectId && env.dataset) {
    return createSanitySource({
      projectId: env.projectId,
      dataset: env.dataset,
      apiHost: env.apiHost,
      apiVersion: env.apiVersion,
      useCdn: env.useCdn,
    });
  }
  return createDatasetSource(env.datasetPath);
}

export type ContentStoreOptions = {
  source: ContentSource;
  freshMs?: number;
  now?: () => number;
  /** false: every call reads the source (preview: drafts change by the keystroke). */
  cache?: boolean;
};

export function createContentStore({
  source,
  freshMs = DEFAULT_FRESH_MS,
  now,
  cache: useCache = true,
}: ContentStoreOptions) {
  const caches: { clear(): void; readonly size: number }[] = [];

  /** One cached, validated query. The cache key is the query's parameters. */
  function cachedQuery<S extends z.ZodTypeAny>(name: string, query: string, schema: S) {
    const cache = createSwrCache<z.output<S>>({
      freshMs,
      now,
      // Null is "no such document": not kept, so /services/<anything> adds no entry.
      keep: (value) => value !== null && value !== undefined,
      onRefreshError: (key, error) => console.error(`Content refresh of ${name} ${key} failed; serving stale`, error),
    });
    caches.push(cache);
    const load = async (params: QueryParams) => {
      const result = schema.safeParse(await source.fetch(query, params));
      if (!result.success) {
        throw new Error(`Content "${name}" does not match its schema: ${result.error.message}`);
      }
      return result.data;
    };
    return (params: QueryParams = {}): Promise<z.output<S>> =>
      useCache ? cache.get(JSON.stringify(params), () => load(params)) : load(params);
  }

  const siteSettings = cachedQuery("siteSettings", SITE_SETTINGS_QUERY, siteSettingsSchema);
  const catalogue = cachedQuery("catalogue", CATALOGUE_QUERY, catalogueSchema);
  const plan = cachedQuery("plan", PLAN_BY_SLUG_QUERY, planSchema.nullable());
  const addOns = cachedQuery("addOns", ADD_ONS_QUERY, addOnsSchema);
  const faqs = cachedQuery("faqs", FAQS_QUERY, faqsSchema);
  const homePage = cachedQuery("homePage", HOME_PAGE_QUERY, homePageSchema);
  const servicesPage = cachedQuery("servicesPage", SERVICES_PAGE_QUERY, servicesPageSchema);
  const aboutPage = cachedQuery("aboutPage", ABOUT_PAGE_QUERY, aboutPageSchema);
  const contactPage = cachedQuery("contactPage", CONTACT_PAGE_QUERY, contactPageSchema);
  const legalPage = cachedQuery("legalPage", LEGAL_PAGE_QUERY, legalPageSchema.nullable());
  const quoteServiceOptions = cachedQuery(
    "quoteServiceOptions",
    QUOTE_SERVICE_OPTIONS_QUERY,
    quoteServiceOptionsSchema,
  );
  const sitemap = cachedQuery("sitemap", SITEMAP_QUERY, sitemapSchema);
  const routeSettings = cachedQuery("routeSettings", ROUTE_SETTINGS_QUERY, routeSettingsSchema);
  const galleryPage = cachedQuery("galleryPage", GALLERY_PAGE_QUERY, galleryPageSchema);
  const beforeAfterPairs = cachedQuery("beforeAfterPairs", BEFORE_AFTER_QUERY, beforeAfterListSchema);

  const PAGE_PATHS: Record<string, string> = {
    homePage: "/",
    servicesPage: "/services",
    aboutPage: "/about",
    contactPage: "/contact",
    galleryPage: "/gallery",
  };

  return {
    source,
    getSiteSettings: () => siteSettings(),
    getCatalogue: () => catalogue(),
    getPlan: (slug: string) => plan({ slug }),
    getAddOns: () => addOns(),
    getFaqs: () => faqs(),
    getHomePage: () => homePage(),
    getServicesPage: () => servicesPage(),
    getAboutPage: () => aboutPage(),
    getContactPage: () => contactPage(),
    getLegalPage: (slug: string) => legalPage({ slug }),
    getQuoteServiceOptions: () => quoteServiceOptions(),
    getGalleryPage: () => galleryPage(),
    getBeforeAfterPairs: () => beforeAfterPairs(),
    getRouteSettings: () => routeSettings(),
    async getSitemapEntries(): Promise<SitemapEntry[]> {
      const content = await sitemap();
      return [
        ...content.pages.flatMap((page) => {
          const pagePath = PAGE_PATHS[page._id];
          return pagePath ? [{ path: pagePath, lastModified: page._updatedAt }] : [];
        }),
        ...content.plans.map((plan) => ({ path: `/services/${plan.slug}`, lastModified: plan._updatedAt })),
        ...content.legalPages.map((page) => ({ path: `/${page.slug}`, lastModified: page._updatedAt })),
      ];
    },
    clear() {
      for (const cache of caches) cache.clear();
    },
    /** Entries held across every query (tests check that made-up slugs add none). */
    cachedEntries() {
      return caches.reduce((sum, cache) => sum + cache.size, 0);
    },
  };
}

export type ContentStore = ReturnType<typeof createContentStore>;

let store: ContentStore | undefined;

let previewStore: ContentStore | undefined;

/**
 * The store for this request: in preview (a signed preview cookie, see preview.server.ts) one that
 * reads drafts from Sanity and caches nothing; otherwise the shared, cached, published one.
 */
function contentStore(): ContentStore {
  if (currentRequestContext().preview) {
    const env = getEnv();
    if (env.SANITY_PROJECT_ID && env.SANITY_DATASET && env.SANITY_API_READ_TOKEN) {
      previewStore ??= createContentStore({
        source: createSanitySource({
          projectId: env.SANITY_PROJECT_ID,
          dataset: env.SANITY_DATASET,
          apiHost: env.SANITY_API_HOST,
          apiVersion: env.SANITY_API_VERSION,
          drafts: { token: env.SANITY_API_READ_TOKEN, studioUrl: env.SANITY_STUDIO_URL },
        }),
        cache: false,
      });
      return previewStore;
    }
  }
  if (!store) {
    const env = readContentEnv();
    store = createContentStore({ source: createSourceFromEnv(env), freshMs: env.freshMs });
  }
  return store;
}

/** Tests swap the store (e.g. for one over a modified dataset); undefined goes back to env. */
export function replaceContentStore(next?: ContentStore) {
  store = next;
  previewStore = undefined;
}

/** Forget every cached result, e.g. after Sanity reports a publish. */
export function clearContentCache() {
  store?.clear();
}

export const getSiteSettings = () => contentStore().getSiteSettings();
export const getCatalogue = () => contentStore().getCatalogue();
export const getPlan = (slug: string) => contentStore().getPlan(slug);
export const getAddOns = () => contentStore().getAddOns();
export const getFaqs = () => contentStore().getFaqs();
export const getHomePage = () => contentStore().getHomePage();
export const getServicesPage = () => contentStore().getServicesPage();
export const getAboutPage = () => contentStore().getAboutPage();
export const getContactPage = () => contentStore().getContactPage();
export const getLegalPage = (slug: string) => contentStore().getLegalPage(slug);
export const getQuoteServiceOptions = () => contentStore().getQuoteServiceOptions();
export const getSitemapEntries = () => contentStore().getSitemapEntries();
export const getGalleryPage = () => contentStore().getGalleryPage();
export const getBeforeAfterPairs = () => contentStore().getBeforeAfterPairs();
export const getRouteSettings = () => contentStore().getRouteSettings();
