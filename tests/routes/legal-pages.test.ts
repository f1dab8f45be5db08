import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LEGAL_PAGES } from "~/content/legal-pages";
import { bundledDocuments, writeDatasetCopy, type DatasetDoc } from "../helpers/bundled-dataset";
import { BUILD_FILE, ensureBuild } from "../helpers/ensure-build";

/**
 * The legal pages quote the phone, e-mail, business name, areas and hours from Site settings
 * (decision 054): rendered through the production build (root + route loaders and components)
 * over a copy of the bundled dataset whose settings differ, every page shows the new values and
 * none of the bundled ones.
 */

const bundledSettings = bundledDocuments().find((doc) => doc._id === "siteSettings") as DatasetDoc & {
  phone: string;
  email: string;
  businessName: string;
  serviceAreas: string[];
  hours: { display: string };
};
const changed = {
  phone: "(702) 555-0199",
  email: "office@changed-business.example",
  businessName: "Changed Name Yard Care",
  serviceAreas: ["Boulder City", "Mesquite"],
  hours: "Monday – Saturday, 7am – 6pm",
};

let workDir: string;
let handle: ReturnType<typeof createRequestHandler>;

beforeAll(async () => {
  ensureBuild();
  workDir = mkdtempSync(path.join(os.tmpdir(), "legal-pages-"));
  process.env.CONTENT_DATASET_PATH = writeDatasetCopy(path.join(workDir, "dataset"), (doc) => {
    if (doc._id !== "siteSettings") return doc;
    const hours = { ...(doc.hours as object), display: changed.hours };
    return { ...doc, ...changed, hours };
  });
  process.env.DATA_DIR = workDir;
  // The build reads CONTENT_DATASET_PATH when it first needs content, i.e. on the first request.
  const build = (await import(/* @vite-ignore */ url.pathToFileURL(BUILD_FILE).href)) as ServerBuild;
  handle = createRequestHandler(build, "production");
}, 180_000);

afterAll(() => {
  delete process.env.CONTENT_DATASET_PATH;
  rmSync(workDir, { recursive: true, force: true });
});

async function article(pathname: string) {
  const response = await handle(new Request(`http://localhost${pathname}`), {
    cspNonce: "legal",
    clientAddress: "127.0.0.1",
  });
  // React separates neighbouring text nodes with <!-- -->; the reader sees one text.
  const html = (await response.text()).replaceAll("<!-- -->", "");
  return { status: response.status, html, article: /<article[\s\S]*<\/article>/.exec(html)?.[0] ?? "" };
}

describe("legal pages read the business facts from Site settings", () => {
  test.each(LEGAL_PAGES.map((page) => page.slug))("/%s shows the settings' phone and e-mail as links", async (slug) => {
    const page = await article(`/${slug}`);
    expect(page.status).toBe(200);
    expect(page.article).toContain(`<a href="tel:+17025550199"`);
    expect(page.article).toContain(`>${changed.phone}</a>`);
    expect(page.article).toContain(`<a href="mailto:${changed.email}"`);
    expect(page.article).toContain(`>${changed.email}</a>`);
    expect(page.article).toContain(changed.businessName);
    // The bundled values are nowhere on the page: not in the text, not in the footer.
    for (const old of [bundledSettings.phone, bundledSettings.email, bundledSettings.businessName])
      expect(page.html).not.toContain(old);
  });

  test("the terms list the settings' service areas and hours", async () => {
    const terms = await article("/terms-of-service");
    expect(terms.article).toContain("businesses in Boulder City and Mesquite, Nevada.");
    expect(terms.article).toContain(`, ${changed.hours}.`);
    expect(terms.article).not.toContain(bundledSettings.serviceAreas[0]);
    expect(terms.article).not.toContain(bundledSettings.hours.display);
  });
});
