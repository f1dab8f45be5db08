import path from "node:path";
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { afterEach, beforeEach, describe, expect, test, vi, type Mock } from "vitest";
import { action, loader } from "~/routes/resources.sanity-webhook";
import {
  createContentStore,
  createDatasetSource,
  DEFAULT_DATASET_PATH,
  getPlan,
  replaceContentStore,
  type ContentSource,
} from "./content.server";

const SECRET = "test-webhook-secret";
const URL = "http://localhost/resources/sanity-webhook";
const body = JSON.stringify({ _id: "servicePlan.weekly", _type: "servicePlan" });

let fetch: Mock<ContentSource["fetch"]>;

beforeEach(() => {
  vi.stubEnv("SANITY_WEBHOOK_SECRET", SECRET);
  // The real bundled dataset, counted: an unknown document (null) is never cached, so the probe
  // below needs a plan that exists.
  const dataset = createDatasetSource(path.resolve(DEFAULT_DATASET_PATH));
  fetch = vi.fn<ContentSource["fetch"]>((query, params) => dataset.fetch(query, params));
  const source: ContentSource = { kind: "dataset", fetch };
  replaceContentStore(createContentStore({ source }));
});

afterEach(() => {
  vi.unstubAllEnvs();
  replaceContentStore();
});

async function post(headers: Record<string, string>, payload = body) {
  const request = new Request(URL, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: payload,
  });
  return action({ request, params: {}, context: {} });
}

/** Whether the cached plan was dropped: a cache hit does not reach the source. */
async function cacheWasCleared(run: () => Promise<Response>) {
  await getPlan("weekly");
  const response = await run();
  const before = fetch.mock.calls.length;
  await getPlan("weekly");
  return { response, cleared: fetch.mock.calls.length > before };
}

describe("Sanity webhook", () => {
  test("a valid signature clears the content cache", async () => {
    const signature = await encodeSignatureHeader(body, Date.now(), SECRET);
    const { response, cleared } = await cacheWasCleared(() => post({ [SIGNATURE_HEADER_NAME]: signature }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ revalidated: true });
    expect(cleared).toBe(true);
  });

  test("a signature made with another secret is rejected with 401", async () => {
    const signature = await encodeSignatureHeader(body, Date.now(), "wrong-secret");
    const { response, cleared } = await cacheWasCleared(() => post({ [SIGNATURE_HEADER_NAME]: signature }));
    expect(response.status).toBe(401);
    expect(cleared).toBe(false);
  });

  test("a body changed after signing is rejected with 401", async () => {
    const signature = await encodeSignatureHeader(body, Date.now(), SECRET);
    const response = await post({ [SIGNATURE_HEADER_NAME]: signature }, body.replace("weekly", "twice-weekly"));
    expect(response.status).toBe(401);
  });

  test("a missing or malformed signature header is rejected with 401", async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ [SIGNATURE_HEADER_NAME]: "not-a-signature" })).status).toBe(401);
  });

  test("without a configured secret every request is rejected", async () => {
    vi.stubEnv("SANITY_WEBHOOK_SECRET", "");
    const signature = await encodeSignatureHeader(body, Date.now(), SECRET);
    expect((await post({ [SIGNATURE_HEADER_NAME]: signature })).status).toBe(401);
  });

  test("a correctly signed call older than 5 minutes (a replay) is refused before its body is read", async () => {
    const dayOld = Date.now() - 24 * 60 * 60 * 1000;
    const signature = await encodeSignatureHeader(body, dayOld, SECRET);
    const request = new Request(URL, {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER_NAME]: signature },
      body,
    });
    const { response, cleared } = await cacheWasCleared(async () => action({ request, params: {}, context: {} }));
    expect(response.status).toBe(401);
    expect(cleared).toBe(false);
    expect(request.bodyUsed).toBe(false);
    const sixMinutes = await encodeSignatureHeader(body, Date.now() - 6 * 60 * 1000, SECRET);
    expect((await post({ [SIGNATURE_HEADER_NAME]: sixMinutes })).status).toBe(401);
    const fourMinutes = await encodeSignatureHeader(body, Date.now() - 4 * 60 * 1000, SECRET);
    expect((await post({ [SIGNATURE_HEADER_NAME]: fourMinutes })).status).toBe(200);
  });

  test("GET answers 405 Method Not Allowed", async () => {
    const response = await loader();
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });

  test("other methods than POST answer 405", async () => {
    const request = new Request(URL, { method: "PUT", body });
    expect((await action({ request, params: {}, context: {} })).status).toBe(405);
  });
});
