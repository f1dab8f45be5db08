import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { evaluate, parse } from "groq-js";
import sharp from "sharp";
import { list as listTar } from "tar";
import { createSchema, validateDocument, type SanityClient, type Workspace } from "sanity";
import { describe, expect, test, vi } from "vitest";
import { schemaTypes } from "../../studio/schemas";
import { createContentStore, createDatasetSource, DEFAULT_DATASET_PATH } from "./content.server";
import { readDatasetArchive } from "./dataset-archive.server";

/**
 * The bundled dataset against the studio's own schema and validation rules: what the owner could
 * not publish from the studio must not be in the file either.
 */

type Doc = { _id: string; _type: string; [field: string]: unknown };

function isDoc(value: unknown): value is Doc {
  return typeof value === "object" && value !== null && "_id" in value && "_type" in value;
}

// Read synchronously: test.each needs the documents when the tests are collected.
const archivePath = path.resolve(DEFAULT_DATASET_PATH);
const archive = readDatasetArchive(archivePath);
const documents: Doc[] = archive.documents.filter(isDoc);

const schema = createSchema({ name: "default", types: schemaTypes });

/** The parts of a workspace that validateDocument uses, backed by groq-js over the dataset. */
function offlineWorkspace(): Workspace {
  const fetch = async (query: string, params: Record<string, unknown> = {}) =>
    (await evaluate(parse(query, { params }), { dataset: documents, params })).get();
  const client = { fetch, withConfig: () => client };
  // validateDocument reads only `schema`, `getClient` and `i18n` (it falls back to English).
  return { schema, getClient: () => client as unknown as SanityClient } as unknown as Workspace;
}

async function validationMarkers(document: Doc) {
  // Sanity's validator waits for an idle callback, which it polyfills with window.setTimeout.
  vi.stubGlobal("window", { setTimeout, clearTimeout });
  const ids = new Set([...documents.map((doc) => doc._id), ...archive.images.keys()]);
  const markers = await validateDocument({
    document: { _createdAt: "", _updatedAt: "", _rev: "", ...document },
    workspace: offlineWorkspace(),
    environment: "studio",
    getDocumentExists: async ({ id }) => ids.has(id),
  });
  return markers.map((marker) => `${marker.level} at ${marker.path.join(".") || "(document)"}: ${marker.message}`);
}

describe("the studio schema", () => {
  test("compiles without problems", () => {
    const problems = schema._validation?.flatMap((group) => group.problems) ?? [];
    expect(problems).toEqual([]);
  });

  test("has a type for every document in the dataset", () => {
    const types = new Set<string>(schemaTypes.map((type) => type.name));
    expect(documents.filter((doc) => !types.has(doc._type)).map((doc) => doc._id)).toEqual([]);
  });
});

describe("every document passes the studio validation rules", () => {
  test("data.ndjson has one document per line", () => {
    expect(documents).toHaveLength(archive.documents.length);
  });

  test.each(documents.map((doc): [string, Doc] => [doc._id, doc]))("%s", async (_id, document) => {
    expect(await validationMarkers(document)).toEqual([]);
  });
});

describe("the validation rules reject what would break the site", () => {
  const find = (id: string) => {
    const doc = documents.find((candidate) => candidate._id === id);
    if (!doc) throw new Error(`missing ${id}`);
    return structuredClone(doc);
  };

  test.each([
    ["a plan without a name", () => ({ ...find("servicePlan.weekly"), name: undefined }), "error at name"],
    [
      "a zero price",
      () => ({ ...find("servicePlan.weekly"), price: { _type: "price", amount: 0, unit: "month" } }),
      "error at price.amount",
    ],
    ["a duplicate plan slug", () => ({ ...find("servicePlan.weekly"), _id: "servicePlan.copy" }), "error at slug"],
    [
      "a subscription priced once",
      () => ({ ...find("servicePlan.weekly"), price: { _type: "price", amount: 89, unit: "one-time" } }),
      "error at price",
    ],
    [
      "a popular plan without a badge",
      () => ({ ...find("servicePlan.twice-weekly"), badge: undefined }),
      "error at badge",
    ],
    [
      "a Before & After pair the customer did not agree to publish",
      () => ({ ...find("beforeAfter.summerlin-backyard"), customerConsent: false }),
      "error at customerConsent: The customer must agree",
    ],
    [
      "a picture without alternative text",
      () => {
        const pair = find("beforeAfter.summerlin-backyard");
        return { ...pair, before: { ...(pair.before as object), alt: "" } };
      },
      "error at before.alt",
    ],
    [
      "a neighbourhood with a house number",
      () => ({ ...find("beforeAfter.summerlin-backyard"), neighbourhood: "1234 Main St" }),
      "error at neighbourhood",
    ],
    ["a 4-digit ZIP code", () => ({ ...find("siteSettings"), servedZipCodes: ["8904"] }), "error at servedZipCodes"],
    ["an invalid e-mail", () => ({ ...find("siteSettings"), email: "hello-at-example" }), "error at email"],
    [
      "a booking URL without https",
      () => ({ ...find("siteSettings"), bookingCalendarUrl: "http://example.com" }),
      "error at bookingCalendarUrl",
    ],
    [
      "a legal page with an unrouted slug",
      () => ({ ...find("legalPage.disclaimer"), slug: { _type: "slug", current: "cookies" } }),
      "error at slug",
    ],
    [
      "a duplicate quote option value",
      () => ({ ...find("quoteServiceOption.weekly"), _id: "quoteServiceOption.copy" }),
      "error at value",
    ],
    [
      "an add-on with two tiers for the same dog count",
      () => {
        const addOn = find("addOn.multi-dog");
        return {
          ...addOn,
          tiers: [
            { _key: "a", minDogs: 2, monthlyAmount: 15 },
            { _key: "b", minDogs: 2, monthlyAmount: 20 },
          ],
        };
      },
      "error at tiers",
    ],
  ])("%s", async (_label, broken, expected) => {
    const markers = await validationMarkers(broken());
    expect(markers.some((marker) => marker.startsWith(expected))).toBe(true);
  });
});

/** The archive's entries, read the way `tar tzf` would. */
async function archiveEntries(): Promise<{ path: string; size: number }[]> {
  const entries: { path: string; size: number }[] = [];
  await listTar({ file: archivePath, onReadEntry: (entry) => entries.push({ path: entry.path, size: entry.size }) });
  return entries;
}

/** Every `_sanityAsset` placeholder of data.ndjson, straight from the archive (before any rewriting). */
async function placeholders(): Promise<string[]> {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null)
      for (const [key, child] of Object.entries(value)) {
        if (key === "_sanityAsset" && typeof child === "string") found.push(child);
        else walk(child);
      }
  };
  const { Parser } = await import("tar");
  let text = "";
  const parser = new Parser({
    onReadEntry(entry) {
      if (!entry.path.endsWith("/data.ndjson")) return entry.resume();
      entry.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    },
  });
  parser.end(gunzipSync(readFileSync(archivePath)));
  for (const line of text.trim().split("\n")) walk(JSON.parse(line));
  return found;
}

describe("the archive is what `sanity dataset export` writes", () => {
  test("one folder holding data.ndjson, assets.json and images/, a few hundred kB at most", async () => {
    const entries = await archiveEntries();
    const folders = new Set(entries.map((entry) => entry.path.split("/")[0]));
    expect([...folders]).toEqual(["production-export"]);
    const names = entries.map((entry) => entry.path.slice("production-export/".length));
    expect(names).toContain("data.ndjson");
    expect(names).toContain("assets.json");
    const images = names.filter((name) => name.startsWith("images/"));
    expect(images.length).toBeGreaterThanOrEqual(8);
    for (const name of images) expect(name).toMatch(/^images\/[a-f0-9]{40}-\d+x\d+\.png$/);
    expect(readFileSync(archivePath).byteLength).toBeLessThan(400_000);
  });

  test("every image reference in data.ndjson resolves to a file inside the archive", async () => {
    const references = await placeholders();
    expect(references.length).toBeGreaterThanOrEqual(8);
    const files = new Set((await archiveEntries()).map((entry) => entry.path.replace(/^production-export\//, "")));
    for (const reference of references) {
      expect(reference).toMatch(/^image@file:\/\/\.\/images\//);
      expect(files.has(reference.replace("image@file://./", "")), reference).toBe(true);
    }
    expect(archive.missingAssets).toEqual([]);
  });

  test("each image file is the picture its name says: sha1 of its bytes, and its width and height", async () => {
    const { createHash } = await import("node:crypto");
    for (const [id, bytes] of archive.images) {
      const [, sha1, width, height, format] = /^image-([a-f0-9]{40})-(\d+)x(\d+)-([a-z]+)$/.exec(id) ?? [];
      expect(createHash("sha1").update(bytes).digest("hex")).toBe(sha1);
      const metadata = await sharp(bytes).metadata();
      expect([metadata.width, metadata.height, metadata.format]).toEqual([Number(width), Number(height), format]);
    }
  });
});

describe("the file is what `sanity dataset import` accepts", () => {
  test("ids are unique and use only the allowed characters", () => {
    const ids = documents.map((doc) => doc._id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9_.-]+$/i);
  });

  test("every object in an array has a _key", () => {
    const missing: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) {
        value.forEach((item, index) => {
          if (typeof item === "object" && item !== null && !("_key" in item)) missing.push(`${at}[${index}]`);
          walk(item, `${at}[${index}]`);
        });
      } else if (typeof value === "object" && value !== null) {
        for (const [key, child] of Object.entries(value)) walk(child, `${at}.${key}`);
      }
    };
    for (const doc of documents) walk(doc, doc._id);
    expect(missing).toEqual([]);
  });
});

describe("the dataset holds the content of the spec", () => {
  const store = () => createContentStore({ source: createDatasetSource(path.resolve(DEFAULT_DATASET_PATH)) });

  test("every plan of the catalogue, at the catalogue prices", async () => {
    const plans = await store().getCatalogue();
    expect(plans.map((plan) => [plan.slug, plan.price.amount, plan.price.unit])).toEqual([
      ["weekly", 89, "month"],
      ["twice-weekly", 159, "month"],
      ["thrice-weekly", 225, "month"],
      ["desert-dash", 85, "one-time"],
      ["desert-refresh", 135, "one-time"],
      ["neglected-property", 250, "from"],
      ["yard-refresh", 75, "one-time"],
      ["sanitize-deodorize", 95, "one-time"],
      ["trash-bin-clean", 20, "per-bin"],
    ]);
    expect(plans.filter((plan) => plan.popular).map((plan) => [plan.slug, plan.badge])).toEqual([
      ["twice-weekly", "Most Popular"],
    ]);
  });

  test("the multi-dog add-on", async () => {
    const [addOn] = await store().getAddOns();
    expect(addOn.tiers.map((tier) => [tier.minDogs, tier.monthlyAmount])).toEqual([
      [2, 15],
      [3, 25],
    ]);
  });

  test("site settings: areas, hours and contact details", async () => {
    const settings = await store().getSiteSettings();
    expect(settings.serviceAreas).toEqual([
      "Pahrump",
      "Las Vegas",
      "Henderson",
      "Beatty",
      "Spring Valley",
      "Summerlin",
    ]);
    expect(settings.hours).toMatchObject({
      days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
      opens: "08:00",
      closes: "17:00",
    });
    expect(settings.promises.map((promise) => promise.title)).toContain("100% No Mess Guarantee");
    expect(settings.servedZipCodes.length).toBeGreaterThan(20);
  });

  test("an FAQ of 8 to 12 questions", async () => {
    const faqs = await store().getFaqs();
    expect(faqs.length).toBeGreaterThanOrEqual(8);
    expect(faqs.length).toBeLessThanOrEqual(12);
  });

  test("the four legal pages, last updated January 17, 2025, with the facts of the spec", async () => {
    const content = store();
    const text = async (slug: string) => {
      const page = await content.getLegalPage(slug);
      expect(page?.lastUpdated).toBe("2025-01-17");
      return JSON.stringify(page?.body);
    };
    const terms = await text("terms-of-service");
    for (const fact of [
      // The notice is the plan rule from Site settings (rendered "24 hours before ..."): quoted, not typed.
      '"field":"changeNoticeHours"',
      "hours before the scheduled visit",
      // The price change notice is the billing rule from Site settings (decision 116).
      '"field":"priceChangeNoticeDays"',
      "full service rate",
      "within 24 hours",
      "the amount you paid for the most recent service",
      "Nye County, Nevada",
      "under 18",
    ]) {
      expect(terms).toContain(fact);
    }
    const privacy = await text("privacy-policy");
    for (const fact of ["never sell", "under 18", "Cookies"]) expect(privacy).toContain(fact);
    const disclaimer = await text("disclaimer");
    for (const fact of ["Results may vary", "External links", "Testimonials", "Errors and omissions"])
      expect(disclaimer).toContain(fact);
    expect(await text("accessibility")).toContain("within 2 business days");
  });

  test("the legal pages quote the phone, e-mail and business name from Site settings, never as typed text", async () => {
    const settings = await store().getSiteSettings();
    const legal = documents.filter((doc) => doc._type === "legalPage");
    expect(legal).toHaveLength(4);
    const literals = [settings.phone, settings.phone.replace(/\D/g, ""), settings.email, settings.businessName];
    for (const doc of legal) {
      const json = JSON.stringify(doc);
      for (const literal of literals) expect(json, `${doc._id} carries ${literal}`).not.toContain(literal);
      const quoted = (doc.body as { children?: { _type: string; field?: string }[] }[])
        .flatMap((block) => block.children ?? [])
        .filter((child) => child._type === "siteSettingRef")
        .map((child) => child.field);
      // Every page tells visitors how to reach the business: its phone and its e-mail.
      expect(quoted, doc._id).toEqual(expect.arrayContaining(["phone", "email"]));
    }
  });

  test("a legal text quoting an unknown setting is refused by the studio", async () => {
    const doc = documents.find((candidate) => candidate._id === "legalPage.privacy-policy");
    const broken = structuredClone(doc) as Doc & { body: { children: { _type: string; field?: string }[] }[] };
    const block = broken.body.find((candidate) => candidate.children.some((child) => child._type === "siteSettingRef"));
    const ref = block?.children.find((child) => child._type === "siteSettingRef");
    if (!ref) throw new Error("no siteSettingRef in the privacy policy");
    ref.field = "fax";
    const markers = await validationMarkers(broken);
    expect(markers.some((marker) => marker.startsWith("error at body"))).toBe(true);
  });

  test("quote options for every service of the form, priced from their plans", async () => {
    const options = await store().getQuoteServiceOptions();
    expect(options.map((option) => [option.value, option.plan?.slug ?? null])).toEqual([
      ["weekly", "weekly"],
      ["twice-weekly", "twice-weekly"],
      ["dash", "desert-dash"],
      ["refresh", "desert-refresh"],
      ["yard-refresh", "yard-refresh"],
      ["commercial", null],
    ]);
  });
});
