import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSanityApiMock, type SanityApiMock } from "../../tests/mocks/sanity-api";
import * as queries from "./queries";
import {
  createContentStore,
  createDatasetSource,
  createSanitySource,
  DEFAULT_DATASET_PATH,
  readDataset,
  SANITY_API_VERSION,
  type ContentSource,
  type QueryParams,
} from "./content.server";

const DATASET = "production";
const datasetPath = path.resolve(DEFAULT_DATASET_PATH);

let api: SanityApiMock;
let local: ContentSource;
let remote: ContentSource;

beforeAll(async () => {
  api = await startSanityApiMock({ documents: await readDataset(datasetPath), dataset: DATASET });
  local = createDatasetSource(datasetPath);
  remote = createSanitySource({ projectId: "test-project", dataset: DATASET, apiHost: api.apiHost });
});

afterAll(() => api.close());

const planSlugs = [
  "weekly",
  "twice-weekly",
  "thrice-weekly",
  "desert-dash",
  "neglected-property",
  "desert-refresh",
  "sanitize-deodorize",
  "trash-bin-clean",
  "yard-refresh",
  "no-such-plan",
];
const legalSlugs = ["terms-of-service", "privacy-policy", "disclaimer", "accessibility", "no-such-page"];

/** Every query with every parameter value the site uses, plus one unknown value each. */
const cases: [string, string, QueryParams][] = [
  ...Object.entries(queries)
    .filter(([name]) => name !== "PLAN_BY_SLUG_QUERY" && name !== "LEGAL_PAGE_QUERY")
    .map(([name, query]): [string, string, QueryParams] => [name, query, {}]),
  ...planSlugs.map((slug): [string, string, QueryParams] => [
    `PLAN_BY_SLUG_QUERY ${slug}`,
    queries.PLAN_BY_SLUG_QUERY,
    { slug },
  ]),
  ...legalSlugs.map((slug): [string, string, QueryParams] => [
    `LEGAL_PAGE_QUERY ${slug}`,
    queries.LEGAL_PAGE_QUERY,
    { slug },
  ]),
];

describe("groq-js over the bundled dataset and @sanity/client against the query API agree", () => {
  test.each(cases)("%s", async (_name, query, params) => {
    const [fromDataset, fromClient] = await Promise.all([local.fetch(query, params), remote.fetch(query, params)]);
    expect(fromClient).toEqual(fromDataset);
  });

  test("a query long enough to be sent as POST gives the same result", async () => {
    const padded = `// ${"padding ".repeat(1600)}\n${queries.CATALOGUE_QUERY}`;
    const before = api.requests.length;
    const [fromDataset, fromClient] = await Promise.all([local.fetch(padded, {}), remote.fetch(padded, {})]);
    expect(fromClient).toEqual(fromDataset);
    expect(api.requests.slice(before).map((request) => request.method)).toContain("POST");
  });

  test("the client asks for published content at the pinned API version", async () => {
    await remote.fetch(queries.PLAN_BY_SLUG_QUERY, { slug: "weekly" });
    const request = api.requests.at(-1);
    expect(request?.pathname).toBe(`/v${SANITY_API_VERSION}/data/query/${DATASET}`);
    expect(request?.searchParams.get("perspective")).toBe("published");
    expect(request?.searchParams.get("$slug")).toBe('"weekly"');
  });

  test("the typed content functions return the same values through either source", async () => {
    const viaDataset = createContentStore({ source: local });
    const viaClient = createContentStore({ source: remote });
    const read = (store: typeof viaDataset) =>
      Promise.all([
        store.getSiteSettings(),
        store.getCatalogue(),
        store.getPlan("twice-weekly"),
        store.getPlan("nope"),
        store.getAddOns(),
        store.getFaqs(),
        store.getHomePage(),
        store.getServicesPage(),
        store.getAboutPage(),
        store.getContactPage(),
        store.getLegalPage("privacy-policy"),
        store.getQuoteServiceOptions(),
        store.getSitemapEntries(),
      ]);
    expect(await read(viaClient)).toEqual(await read(viaDataset));
  });
});

describe("the dataset source follows the published perspective", () => {
  test("drafts are not returned", async () => {
    const documents = await readDataset(datasetPath);
    expect(documents.some((doc) => JSON.stringify(doc).includes('"_id":"drafts.'))).toBe(false);
  });
});
