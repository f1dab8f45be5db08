import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { readDatasetArchive } from "../../app/content/dataset-archive.server";
import { freePort, startAppServer, type AppServer } from "../helpers/app-server";
import { BUNDLED_DATASET_PATH } from "../helpers/bundled-dataset";
import { startSanityApiMock, type SanityApiMock } from "../mocks/sanity-api";

/**
 * Live preview end to end: server.js against a local stand-in for Sanity's API, and a stand-in
 * Studio on another origin that frames the site as the Presentation tool does. Checks the frame
 * policy, drafts in the frame only, and no caching of previews.
 */

const TOKEN = "viewer-token-for-e2e";
const SECRET = "e2e-preview-secret";
const DRAFT_HEADING = "Draft: a heading the owner has not published";

let api: SanityApiMock;
let site: AppServer;
let studio: Server;
let origin: string;
let studioOrigin: string;
let publishedHeading: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const documents = readDatasetArchive(BUNDLED_DATASET_PATH).documents as { _id: string; [key: string]: unknown }[];
  const home = documents.find((doc) => doc._id === "homePage") as { _id: string; hero: { heading: string } };
  publishedHeading = home.hero.heading;
  const studioPort = await freePort();
  studioOrigin = `http://127.0.0.1:${studioPort}`;
  api = await startSanityApiMock({
    dataset: "production",
    token: TOKEN,
    documents: [
      ...documents,
      { ...structuredClone(home), _id: "drafts.homePage", hero: { ...home.hero, heading: DRAFT_HEADING } },
      {
        _id: "sanity-preview-url-secret.e2e",
        _type: "sanity.previewUrlSecret",
        _updatedAt: new Date().toISOString(),
        secret: SECRET,
        studioUrl: `${studioOrigin}/studio`,
      },
    ],
  });

  // The "Studio": one page framing the site's preview entry, as the Presentation tool does.
  studio = createServer((request, response) => {
    const target =
      request.url === "/no-secret"
        ? `${origin}/`
        : `${origin}/resources/preview?sanity-preview-secret=${SECRET}&sanity-preview-pathname=/`;
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      `<!doctype html><title>Studio</title><iframe title="Preview" src="${target}" width="1200" height="800"></iframe>`,
    );
  });
  studio.listen(studioPort, "127.0.0.1");
  await once(studio, "listening");

  // Its own PGlite folder, even when CI points the suite's server at PostgreSQL.
  site = await startAppServer(
    {
      SESSION_SECRET: "preview-e2e-session-secret-long-enough-0123456789",
      SANITY_PROJECT_ID: "test-project",
      SANITY_DATASET: "production",
      SANITY_API_HOST: api.apiHost,
      SANITY_USE_CDN: "false",
      SANITY_API_READ_TOKEN: TOKEN,
      SANITY_STUDIO_URL: `${studioOrigin}/studio`,
    },
    { ready: "healthy" },
  );
  origin = site.url; // the Studio page below reads it per request
});

test.afterAll(async () => {
  await site?.stop();
  await new Promise((resolve) => studio?.close(resolve));
  await api?.close();
});

test("without the secret: published content, public caching, and nobody may frame the site", async ({ request }) => {
  const response = await request.get(`${origin}/`);
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["cache-control"]).toContain("public");
  const html = await response.text();
  expect(html).toContain(publishedHeading);
  expect(html).not.toContain(DRAFT_HEADING);

  const refused = await request.get(`${origin}/resources/preview?sanity-preview-secret=wrong`, { maxRedirects: 0 });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["set-cookie"]).toBeUndefined();
});

test("the Studio frames the preview: drafts, the preview bar, no caching, framing by the Studio only", async ({
  page,
}) => {
  const cspErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|frame-ancestors/i.test(message.text()))
      cspErrors.push(message.text());
  });
  const framedPage = page.waitForResponse((response) => response.url() === `${origin}/`);
  await page.goto(`${studioOrigin}/`);

  const response = await framedPage;
  const headers = await response.allHeaders();
  expect(headers["content-security-policy"]).toContain(`frame-ancestors 'self' ${studioOrigin}`);
  expect(headers["x-frame-options"]).toBeUndefined();
  expect(headers["cache-control"]).toBe("private, no-store");

  const frame = page.frameLocator('iframe[title="Preview"]');
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText(DRAFT_HEADING);
  await expect(frame.getByText("Preview: you are seeing unpublished drafts.")).toBeVisible();
  expect(cspErrors).toEqual([]);

  // The same site, outside the Studio and without the cookie, is still the published one.
  const other = await page.context().browser()!.newContext();
  const visitor = await other.newPage();
  await visitor.goto(`${origin}/`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(publishedHeading);
  await other.close();
});

test("without preview the Studio cannot frame the site", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const framed = page.waitForResponse((response) => response.url() === `${origin}/`);
  await page.goto(`${studioOrigin}/no-secret`);
  const headers = await (await framed).allHeaders();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  // The browser refuses to render it: the frame never shows the site's heading.
  await expect(page.frameLocator('iframe[title="Preview"]').getByRole("heading", { level: 1 })).toHaveCount(0);
  await context.close();
});
