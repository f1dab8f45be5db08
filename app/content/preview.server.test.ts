import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { PREVIEW_COOKIE as SERVER_PREVIEW_COOKIE, previewFrameAncestor } from "../../server/preview-frame.js";
import { callRoute } from "../../tests/helpers/route-calls";
import { startSanityApiMock, type SanityApiMock } from "../../tests/mocks/sanity-api";
import { loader as homeLoader } from "~/routes/_index";
import { loader as enablePreview } from "~/routes/resources.preview";
import { loader as disablePreview } from "~/routes/resources.preview.disable";
import { resetEnvCache } from "~/utils/env.server";
import { DEFAULT_DATASET_PATH, readDataset, replaceContentStore } from "./content.server";
import { PREVIEW_COOKIE } from "./preview";
import { isPreviewRequest, runWithRequestContext } from "./preview.server";

/**
 * Live preview against a local stand-in for Sanity's API that applies perspectives and tokens
 * like the real one: the published site without the secret, drafts with it.
 */

const TOKEN = "viewer-token-for-tests";
const SECRET = "one-time-preview-secret";
const STUDIO_URL = "https://studio.example.com";
const DRAFT_HEADING = "A draft heading nobody has published";
const SANITY_ENV = {
  SANITY_PROJECT_ID: "test-project",
  SANITY_DATASET: "production",
  SANITY_API_READ_TOKEN: TOKEN,
  SANITY_STUDIO_URL: STUDIO_URL,
  SANITY_USE_CDN: "false",
};

let api: SanityApiMock;
let publishedHeading: string;

function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  replaceContentStore(undefined);
}

beforeAll(async () => {
  const published = await readDataset(path.resolve(DEFAULT_DATASET_PATH));
  const home = published.find((doc) => (doc as { _id: string })._id === "homePage") as {
    hero: { heading: string };
  };
  publishedHeading = home.hero.heading;
  const draft = { ...structuredClone(home), _id: "drafts.homePage", hero: { ...home.hero, heading: DRAFT_HEADING } };
  const secret = {
    _id: "sanity-preview-url-secret.test",
    _type: "sanity.previewUrlSecret",
    _updatedAt: new Date().toISOString(),
    secret: SECRET,
    studioUrl: STUDIO_URL,
  };
  api = await startSanityApiMock({ documents: [...published, draft, secret], dataset: "production", token: TOKEN });
  setEnv({ ...SANITY_ENV, SANITY_API_HOST: api.apiHost });
});

afterAll(async () => {
  setEnv(Object.fromEntries(Object.keys({ ...SANITY_ENV, SANITY_API_HOST: "" }).map((name) => [name, undefined])));
  await api.close();
});

beforeEach(() => {
  replaceContentStore(undefined);
  api.requests.length = 0;
});

/** Calls the home page's loader as server.js does: inside the request's preview context. */
async function home(cookie?: string) {
  const request = new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });
  const response = await runWithRequestContext(request, () => homeLoader({ request, params: {}, context: {} }));
  const data = (await response.json()) as { home: { hero: { heading: string } } };
  return { response, heading: data.home.hero.heading };
}

async function startPreview(): Promise<string> {
  const response = await callRoute(
    enablePreview,
    `/resources/preview?sanity-preview-secret=${SECRET}&sanity-preview-pathname=/about`,
  );
  const cookie = response.headers.get("set-cookie") ?? "";
  return cookie.split(";")[0];
}

describe("without the preview secret", () => {
  test("the site shows published content, cached and publicly cacheable", async () => {
    const first = await home();
    expect(first.heading).toBe(publishedHeading);
    expect(first.response.headers.get("cache-control")).toContain("public");
    const requestsAfterFirst = api.requests.length;
    expect(requestsAfterFirst).toBeGreaterThan(0);
    expect(api.requests.every((request) => request.searchParams.get("perspective") === "published")).toBe(true);

    const second = await home();
    expect(second.heading).toBe(publishedHeading);
    expect(api.requests.length).toBe(requestsAfterFirst); // served from the content cache
  });

  test.each([
    ["no secret", "/resources/preview"],
    ["a wrong secret", "/resources/preview?sanity-preview-secret=guessed"],
  ])("%s: 401, no cookie", async (_label, url) => {
    const response = await callRoute(enablePreview, url);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("not valid");
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  test("a forged, unsigned cookie shows no drafts (but is kept out of shared caches)", async () => {
    const forged = `${PREVIEW_COOKIE}=true`;
    const { heading, response } = await home(forged);
    expect(heading).toBe(publishedHeading);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("with the preview secret", () => {
  test("the browser gets a signed session cookie and lands on the page asked for", async () => {
    const response = await callRoute(
      enablePreview,
      `/resources/preview?sanity-preview-secret=${SECRET}&sanity-preview-pathname=/about`,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/about");
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${PREVIEW_COOKIE}=`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).not.toMatch(/Max-Age|Expires/i); // this browser session only
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  test("an outside redirect is refused: preview only ever lands on this site", async () => {
    const response = await callRoute(
      enablePreview,
      `/resources/preview?sanity-preview-secret=${SECRET}&sanity-preview-pathname=${encodeURIComponent("//evil.example/")}`,
    );
    expect(response.headers.get("location")).toBe("/");
  });

  test("pages show drafts, read afresh on every request, never cacheable", async () => {
    const cookie = await startPreview();
    expect(isPreviewRequest(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toBe(true);
    api.requests.length = 0;

    const first = await home(cookie);
    expect(first.heading).toBe(DRAFT_HEADING);
    expect(first.response.headers.get("cache-control")).toBe("private, no-store");
    const draftRequests = api.requests.filter((request) => request.searchParams.get("perspective") === "drafts");
    expect(draftRequests.length).toBeGreaterThan(0);

    const count = api.requests.length;
    await home(cookie);
    expect(api.requests.length).toBeGreaterThan(count); // no cache in preview

    // Meanwhile everybody else still gets the published page.
    expect((await home()).heading).toBe(publishedHeading);
  });

  test("exit preview ends the cookie", async () => {
    const response = await callRoute(disablePreview, "/resources/preview/disable");
    expect(response.status).toBe(302);
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`^${PREVIEW_COOKIE}=[^;]*; Max-Age=0`));
  });
});

describe("without Sanity configured", () => {
  test("preview is off and says so", async () => {
    setEnv({ SANITY_PROJECT_ID: undefined, SANITY_DATASET: undefined, SANITY_API_READ_TOKEN: undefined });
    try {
      const response = await callRoute(enablePreview, `/resources/preview?sanity-preview-secret=${SECRET}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Preview is off");
      expect(isPreviewRequest(new Request("http://localhost/", { headers: { Cookie: `${PREVIEW_COOKIE}=x` } }))).toBe(
        false,
      );
    } finally {
      setEnv({ ...SANITY_ENV, SANITY_API_HOST: api.apiHost });
    }
  });
});

describe("the frame policy (server.js)", () => {
  test("server.js and the app name the same cookie", () => {
    expect(SERVER_PREVIEW_COOKIE).toBe(PREVIEW_COOKIE);
  });

  test("only the Studio's origin, only in preview", () => {
    const request = (requestPath: string, cookie?: string) => ({ path: requestPath, headers: { cookie } });
    expect(previewFrameAncestor(request("/"), STUDIO_URL)).toBeNull();
    expect(previewFrameAncestor(request("/", "theme=dark"), STUDIO_URL)).toBeNull();
    expect(previewFrameAncestor(request("/", `${PREVIEW_COOKIE}=abc`), `${STUDIO_URL}/desk`)).toBe(STUDIO_URL);
    expect(previewFrameAncestor(request("/resources/preview"), STUDIO_URL)).toBe(STUDIO_URL);
    expect(previewFrameAncestor(request("/", `${PREVIEW_COOKIE}=abc`), "")).toBeNull(); // no Studio URL set
  });
});
