import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { formatPrice } from "../../app/content/pricing";
import { bundledDocuments, writeDatasetCopy } from "../helpers/bundled-dataset";
import { expectNoAxeViolations, waitForHydration } from "./helpers";

/**
 * The public pages of the content issue, checked against the bundled dataset itself: what the
 * tests expect (plans, prices, labels) is read from the same dataset archive the server reads.
 */

type Doc = Record<string, unknown> & { _id: string; _type: string };
const documents: Doc[] = bundledDocuments();

type PlanDoc = Doc & {
  name: string;
  slug: { current: string };
  price: { amount: number; unit: "month" | "one-time" | "per-bin" | "from" };
  ctaLabel: string;
  showInCatalogue: boolean;
};
const plans = documents.filter((doc): doc is PlanDoc => doc._type === "servicePlan");
const legalSlugs = documents
  .filter((doc) => doc._type === "legalPage")
  .map((doc) => (doc.slug as { current: string }).current);

const PUBLIC_PATHS = [
  "/",
  "/services",
  ...plans.map((plan) => `/services/${plan.slug.current}`),
  "/about",
  "/contact",
  "/gallery",
  ...legalSlugs.map((slug) => `/${slug}`),
];

// The portal's pages are another issue's; the links to them are checked by its tests.
const OUT_OF_SCOPE = ["/auth", "/customer-dashboard", "/admin-dashboard"];

type JsonLdNode = Record<string, unknown>;

async function jsonLdOf(page: Page): Promise<JsonLdNode[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((text) => {
    const parsed: unknown = JSON.parse(text);
    return (Array.isArray(parsed) ? parsed : [parsed]) as JsonLdNode[];
  });
}

/** The properties search engines need for each type we publish. */
function jsonLdProblems(node: JsonLdNode): string[] {
  const problems: string[] = [];
  const need = (condition: unknown, what: string) => {
    if (!condition) problems.push(`${String(node["@type"])}: ${what}`);
  };
  need(node["@context"] === "https://schema.org", "@context");
  const offerOk = (offer: JsonLdNode) =>
    typeof offer.price === "number" && offer.priceCurrency === "USD" && typeof offer.url === "string";
  switch (node["@type"]) {
    case "LocalBusiness": {
      const address = node.address as JsonLdNode | undefined;
      need(node.name, "name");
      need(node.telephone, "telephone");
      need(address?.addressRegion && address.addressLocality, "address region and locality");
      need(Array.isArray(node.areaServed) && node.areaServed.length > 0, "areaServed");
      need(Array.isArray(node.openingHoursSpecification) && node.openingHoursSpecification.length > 0, "opening hours");
      const catalogue = node.hasOfferCatalog as JsonLdNode | undefined;
      if (catalogue) {
        const offers = catalogue.itemListElement as JsonLdNode[];
        need(Array.isArray(offers) && offers.length > 0 && offers.every(offerOk), "offers with price");
      }
      break;
    }
    case "Service":
      need(node.name, "name");
      need(node.provider, "provider");
      need(offerOk(node.offers as JsonLdNode), "offer with price");
      break;
    case "FAQPage": {
      const questions = node.mainEntity as JsonLdNode[];
      need(Array.isArray(questions) && questions.length > 0, "questions");
      need(
        questions.every((q) => q.name && (q.acceptedAnswer as JsonLdNode | undefined)?.text),
        "every question answered",
      );
      break;
    }
    case "BreadcrumbList":
      need(Array.isArray(node.itemListElement) && node.itemListElement.length > 0, "items");
      break;
    case "WebPage":
    case "AboutPage":
    case "ContactPage":
    case "CollectionPage":
      need(node.name && node.url, "name and url");
      break;
    default:
      problems.push(`unexpected type ${String(node["@type"])}`);
  }
  return problems;
}

test.describe("every public page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("answers 200 with its own title, description, canonical URL, Open Graph and valid JSON-LD", async ({
    page,
    baseURL,
  }) => {
    const titles = new Map<string, string>();
    const descriptions = new Map<string, string>();
    for (const pagePath of PUBLIC_PATHS) {
      const response = await page.goto(pagePath);
      expect(response?.status(), pagePath).toBe(200);
      await expect(page.locator("h1"), pagePath).toHaveCount(1);

      const title = await page.title();
      const description = await page.locator('meta[name="description"]').getAttribute("content");
      expect(title, pagePath).not.toBe("");
      expect(description?.length ?? 0, pagePath).toBeGreaterThan(40);
      expect(titles.get(title), `${pagePath} repeats the title of ${titles.get(title)}`).toBeUndefined();
      expect(descriptions.get(description ?? ""), `${pagePath} repeats a description`).toBeUndefined();
      titles.set(title, pagePath);
      descriptions.set(description ?? "", pagePath);

      const canonical = new URL(pagePath, baseURL).toString();
      await expect(page.locator('link[rel="canonical"]'), pagePath).toHaveAttribute("href", canonical);
      await expect(page.locator('meta[property="og:title"]'), pagePath).toHaveAttribute("content", title);
      await expect(page.locator('meta[property="og:url"]'), pagePath).toHaveAttribute("content", canonical);
      await expect(page.locator('meta[property="og:description"]'), pagePath).toHaveAttribute(
        "content",
        description ?? "",
      );

      const nodes = await jsonLdOf(page);
      expect(nodes.length, `${pagePath} has structured data`).toBeGreaterThan(0);
      expect(nodes.flatMap(jsonLdProblems), pagePath).toEqual([]);
    }
  });

  test("legal pages declare robots index, follow and their last update", async ({ page }) => {
    for (const slug of legalSlugs) {
      await page.goto(`/${slug}`);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "index, follow");
      await expect(page.getByText(/^Last updated /)).toContainText("January 17, 2025");
    }
  });

  test("no page links to a missing page", async ({ page, request }) => {
    const targets = new Set<string>();
    for (const pagePath of PUBLIC_PATHS) {
      await page.goto(pagePath);
      const hrefs = await page
        .locator("a[href]")
        .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
      for (const href of hrefs) {
        if (!href.startsWith("/") || href.startsWith("//")) continue;
        const target = href.split("#")[0];
        if (target && !OUT_OF_SCOPE.some((prefix) => target.startsWith(prefix))) targets.add(target);
      }
    }
    expect(targets.size).toBeGreaterThan(PUBLIC_PATHS.length / 2);
    for (const target of targets) {
      const response = await request.get(target, { maxRedirects: 0 });
      expect(response.status(), target).toBeLessThan(400);
    }
  });

  test("an unknown service answers 404 with the not-found page", async ({ page }) => {
    const response = await page.goto("/services/no-such-service");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  });

  test("the catalogue lists every plan with its price and a Learn More link", async ({ page }) => {
    await page.goto("/services");
    for (const plan of plans.filter((p) => p.showInCatalogue)) {
      const card = page.locator("article", { has: page.getByRole("heading", { name: plan.name, exact: true }) });
      await expect(card.getByText(formatPrice(plan.price), { exact: true }).first()).toBeAttached();
      await expect(card.getByRole("link", { name: /^Learn More/ })).toHaveAttribute(
        "href",
        `/services/${plan.slug.current}`,
      );
    }
  });

  test("each service page has its price, Book Now (or its own label) and View All Services", async ({ page }) => {
    for (const plan of plans) {
      await page.goto(`/services/${plan.slug.current}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(plan.name);
      await expect(page.getByRole("main").getByText(formatPrice(plan.price), { exact: true }).first()).toBeAttached();
      await expect(page.getByRole("main").getByRole("link", { name: plan.ctaLabel, exact: true })).toHaveAttribute(
        "href",
        "/contact",
      );
      await expect(page.getByRole("main").getByRole("link", { name: "View All Services" })).toHaveAttribute(
        "href",
        "/services",
      );
    }
  });

  test("the home page has the hero buttons, areas, hours, badges and a link to pricing", async ({ page }) => {
    await page.goto("/");
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "View Services" })).toHaveAttribute("href", "/services");
    await expect(main.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
    const settings = documents.find((doc) => doc._id === "siteSettings") as Doc & {
      serviceAreas: string[];
      hours: { display: string };
    };
    for (const area of settings.serviceAreas)
      await expect(main.getByRole("listitem").filter({ hasText: area }).first()).toBeVisible();
    await expect(main.getByText(settings.hours.display).first()).toBeVisible();
  });

  test("the contact page: call and e-mail cards, quote form markup, hours and areas", async ({ page }) => {
    await page.goto("/contact");
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: /^\(\d{3}\) \d{3}-\d{4}$/ })).toHaveAttribute(
      "href",
      /^tel:\+1\d{10}$/,
    );
    await expect(main.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);

    const form = main.locator('form[method="post"][action="/contact"]');
    await expect(form).toHaveCount(1);
    const field = (label: string) => form.getByLabel(label, { exact: true });
    await expect(field("Full name")).toHaveAttribute("required", "");
    await expect(field("Phone")).toHaveAttribute("type", "tel");
    await expect(field("E-mail")).toHaveAttribute("type", "email");
    for (const label of [
      "Full name",
      "Phone",
      "E-mail",
      "Address",
      "ZIP code",
      "Number of dogs",
      "Yard size",
      "Preferred service",
    ]) {
      await expect(field(label), label).toHaveAttribute("required", "");
    }
    await expect(field("Message (optional)")).not.toHaveAttribute("required", "");
    await expect(field("Number of dogs").locator("option:not([disabled])")).toHaveText([
      "1 dog",
      "2 dogs",
      "3 dogs",
      "4 or more dogs",
    ]);
    await expect(field("Yard size").locator("option:not([disabled])")).toHaveCount(3);
    const serviceValues = await field("Preferred service")
      .locator("option:not([disabled])")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(serviceValues).toEqual(["weekly", "twice-weekly", "dash", "refresh", "yard-refresh", "commercial"]);
    // An empty choice is the disabled placeholder only.
    await expect(field("Number of dogs").locator('option[value=""]')).toHaveAttribute("disabled", "");
  });

  test("the FAQ opens one answer at a time and closes again", async ({ page }) => {
    await page.goto("/contact");
    const items = page.locator('details[name="faq"]');
    expect(await items.count()).toBeGreaterThanOrEqual(8);
    await items.nth(0).locator("summary").click();
    await expect(items.nth(0)).toHaveAttribute("open", "");
    await items.nth(1).locator("summary").click();
    await expect(items.nth(1)).toHaveAttribute("open", "");
    await expect(items.nth(0)).not.toHaveAttribute("open", "");
    await items.nth(1).locator("summary").click();
    await expect(items.nth(1)).not.toHaveAttribute("open", "");
  });
});

test.describe("with JavaScript", () => {
  test("the FAQ accordion keeps one answer open", async ({ page }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    const items = page.locator('details[name="faq"]');
    await items.nth(2).locator("summary").click();
    await items.nth(3).locator("summary").click();
    await expect(items.nth(3)).toHaveAttribute("open", "");
    await expect(page.locator('details[name="faq"][open]')).toHaveCount(1);
  });

  test("the quote form estimates the monthly price for the dogs chosen", async ({ page }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    const weekly = plans.find((plan) => plan.slug.current === "weekly");
    const tiers = (
      documents.find((doc) => doc._type === "addOn") as Doc & { tiers: { minDogs: number; monthlyAmount: number }[] }
    ).tiers;
    if (!weekly) throw new Error("the dataset has no weekly plan");
    await page.getByLabel("Preferred service").selectOption("weekly");
    await page.getByLabel("Number of dogs").selectOption("2");
    const twoDogs = tiers.find((tier) => tier.minDogs === 2)?.monthlyAmount ?? 0;
    await expect(page.getByText(/^Estimated price:/)).toHaveText(
      `Estimated price: ${formatPrice({ amount: weekly.price.amount + twoDogs, unit: "month" })}`,
    );
  });

  test("every public page hydrates without a console error", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
    for (const pagePath of PUBLIC_PATHS) {
      await page.goto(pagePath);
      await waitForHydration(page);
    }
    expect(errors).toEqual([]);
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`axe finds no violations on any public page (${scheme})`, async ({ page }) => {
      test.slow();
      for (const pagePath of PUBLIC_PATHS) {
        await page.goto(pagePath);
        await waitForHydration(page);
        if (scheme === "dark") {
          // Let the colour transitions finish, or axe measures colours half-way.
          await page.evaluate(async () => {
            document.documentElement.classList.add("dark");
            await Promise.all(document.getAnimations().map((animation) => animation.finished));
          });
        }
        await expectNoAxeViolations(page, `on ${pagePath} (${scheme})`);
      }
    });
  }

  test("the contact page passes axe with an FAQ answer open, on a phone @phone", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/contact");
    await waitForHydration(page);
    await page.locator('details[name="faq"] summary').first().click();
    await expectNoAxeViolations(page, "on /contact, narrow, FAQ open");
  });
});

test.describe("search engines and caches", () => {
  test("the sitemap lists every public page on SITE_URL", async ({ request, baseURL }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    const locs = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs.sort()).toEqual(PUBLIC_PATHS.map((p) => new URL(p, baseURL).toString()).sort());
  });

  test("robots.txt keeps the portal out and points to the sitemap", async ({ request, baseURL }) => {
    const text = await (await request.get("/robots.txt")).text();
    for (const privatePath of ["/auth", "/customer-dashboard", "/admin-dashboard"]) {
      expect(text).toContain(`Disallow: ${privatePath}`);
    }
    expect(text).toContain(`Sitemap: ${new URL("/sitemap.xml", baseURL).toString()}`);
  });

  test("public pages may be cached and served stale, but never for a visitor with cookies", async ({ baseURL }) => {
    const anonymous = await playwrightRequest.newContext({ baseURL });
    for (const pagePath of ["/", "/services", "/services/weekly", "/contact", "/privacy-policy"]) {
      const cacheControl = (await anonymous.get(pagePath)).headers()["cache-control"];
      expect(cacheControl, pagePath).toContain("public");
      expect(cacheControl, pagePath).toContain("stale-while-revalidate");
    }
    const withCookie = await anonymous.get("/services", { headers: { Cookie: "anything=1" } });
    expect(withCookie.headers()["cache-control"]).toContain("no-store");
    await anonymous.dispose();
  });
});

/** A free TCP port on loopback for a second server. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

test.describe("one price per plan", () => {
  let server: ChildProcess | undefined;
  let workDir: string;
  let origin: string;
  const NEW_AMOUNT = 97;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    workDir = mkdtempSync(path.join(os.tmpdir(), "price-change-"));
    // The same dataset with one number changed: the weekly plan's price.
    const datasetPath = writeDatasetCopy(path.join(workDir, "dataset"), (doc) => {
      if (doc._id === "servicePlan.weekly") (doc.price as { amount: number }).amount = NEW_AMOUNT;
      return doc;
    });

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["./server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        // PGlite and folder storage in production: test-only (decision 050).
        ALLOW_EMBEDDED_IN_PRODUCTION: "true",
        PORT: String(port),
        HOST: "127.0.0.1",
        SITE_URL: origin,
        DATA_DIR: path.join(workDir, "data"),
        SESSION_SECRET: "price-change-session-secret-long-enough-0123456789",
        CONTENT_DATASET_PATH: datasetPath,
        LOG_LEVEL: "warn",
      },
      stdio: "ignore",
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        if ((await fetch(`${origin}/resources/healthcheck`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error("the second server did not start");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  test.afterAll(() => {
    server?.kill();
    rmSync(workDir, { recursive: true, force: true });
  });

  test("changing a plan's price changes the catalogue, the detail page and the JSON-LD together", async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: origin, javaScriptEnabled: false });
    const page = await context.newPage();
    const newPrice = formatPrice({ amount: NEW_AMOUNT, unit: "month" });
    const weekly = plans.find((plan) => plan.slug.current === "weekly");
    if (!weekly) throw new Error("the dataset has no weekly plan");
    const oldPrice = formatPrice(weekly.price);

    const offerPrices = (nodes: JsonLdNode[]) =>
      nodes.flatMap((node) => {
        const catalogue = node.hasOfferCatalog as { itemListElement: JsonLdNode[] } | undefined;
        const offers = catalogue ? catalogue.itemListElement : node.offers ? [node.offers as JsonLdNode] : [];
        return offers.filter((offer) => String(offer.url).endsWith("/services/weekly")).map((offer) => offer.price);
      });

    await page.goto("/services");
    const card = page.locator("article", { has: page.getByRole("heading", { name: weekly.name, exact: true }) });
    await expect(card.getByText(newPrice, { exact: true }).first()).toBeAttached();
    await expect(card.getByText(oldPrice, { exact: true })).toHaveCount(0);
    expect(offerPrices(await jsonLdOf(page))).toEqual([NEW_AMOUNT]);

    await page.goto("/services/weekly");
    await expect(page.getByRole("main").getByText(newPrice, { exact: true }).first()).toBeAttached();
    await expect(page.getByRole("main").getByText(oldPrice, { exact: true })).toHaveCount(0);
    expect(offerPrices(await jsonLdOf(page))).toEqual([NEW_AMOUNT]);

    await page.goto("/");
    expect(offerPrices(await jsonLdOf(page))).toEqual([NEW_AMOUNT]);
    await context.close();
  });
});
