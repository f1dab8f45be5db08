import { describe, expect, test, vi } from "vitest";
import { createContentStore, type ContentSource } from "./content.server";
import { createSwrCache } from "./swr-cache";

/** A promise the test resolves or rejects by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function clockedCache(freshMs = 1000) {
  let time = 0;
  const errors: unknown[] = [];
  const cache = createSwrCache<string>({
    freshMs,
    now: () => time,
    onRefreshError: (_key, error) => errors.push(error),
  });
  return { cache, errors, advance: (ms: number) => (time += ms) };
}

describe("stale-while-revalidate cache", () => {
  test("a miss loads once, and concurrent misses share that load", async () => {
    const { cache } = clockedCache();
    const load = deferred<string>();
    const loader = vi.fn(() => load.promise);
    const first = cache.get("k", loader);
    const second = cache.get("k", loader);
    load.resolve("v1");
    expect(await Promise.all([first, second])).toEqual(["v1", "v1"]);
    expect(loader).toHaveBeenCalledTimes(1);
  });

  test("within the fresh window the cached value is served without loading", async () => {
    const { cache, advance } = clockedCache(1000);
    const loader = vi.fn(async () => "v1");
    await cache.get("k", loader);
    advance(999);
    expect(await cache.get("k", loader)).toBe("v1");
    expect(loader).toHaveBeenCalledTimes(1);
  });

  test("after the window the stale value is served at once while exactly one refresh runs", async () => {
    const { cache, advance } = clockedCache(1000);
    await cache.get("k", async () => "v1");
    advance(1000);
    const refresh = deferred<string>();
    const loader = vi.fn(() => refresh.promise);
    expect(await cache.get("k", loader)).toBe("v1");
    expect(await cache.get("k", loader)).toBe("v1");
    expect(loader).toHaveBeenCalledTimes(1);
    refresh.resolve("v2");
    await flush();
    expect(await cache.get("k", loader)).toBe("v2");
    expect(loader).toHaveBeenCalledTimes(1);
  });

  test("a failed refresh keeps the stale value and is retried on the next request", async () => {
    const { cache, advance, errors } = clockedCache(1000);
    await cache.get("k", async () => "v1");
    advance(5000);
    const failing = vi.fn(async () => {
      throw new Error("content source down");
    });
    expect(await cache.get("k", failing)).toBe("v1");
    await flush();
    expect(errors).toHaveLength(1);
    expect(await cache.get("k", failing)).toBe("v1");
    await flush();
    expect(failing).toHaveBeenCalledTimes(2);
    const recovered = vi.fn(async () => "v2");
    expect(await cache.get("k", recovered)).toBe("v1");
    await flush();
    expect(await cache.get("k", recovered)).toBe("v2");
  });

  test("a failed first load is not cached", async () => {
    const { cache } = clockedCache();
    await expect(cache.get("k", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("k", async () => "v1")).toBe("v1");
  });

  test("clear() makes the next request load again", async () => {
    const { cache } = clockedCache();
    await cache.get("k", async () => "v1");
    cache.clear();
    expect(await cache.get("k", async () => "v2")).toBe("v2");
  });

  test("a refresh that started before clear() cannot put the old value back", async () => {
    const { cache, advance } = clockedCache(1000);
    await cache.get("k", async () => "v1");
    advance(1000);
    const slow = deferred<string>();
    expect(await cache.get("k", () => slow.promise)).toBe("v1");
    cache.clear();
    expect(await cache.get("k", async () => "published")).toBe("published");
    slow.resolve("read before the publish");
    await flush();
    expect(await cache.get("k", async () => "unused")).toBe("published");
  });

  test("keys are cached separately", async () => {
    const { cache } = clockedCache();
    expect(await cache.get("a", async () => "A")).toBe("A");
    expect(await cache.get("b", async () => "B")).toBe("B");
    expect(await cache.get("a", async () => "unused")).toBe("A");
  });
});

describe("content store cache", () => {
  const settings = {
    businessName: "Test Scoop",
    tagline: "A tagline",
    phone: "(775) 555-0100",
    email: "test@example.com",
    hours: { days: ["Monday"], opens: "08:00", closes: "17:00", display: "Mondays" },
    address: { locality: "Pahrump", region: "NV", postalCode: "89048", country: "US" },
    serviceAreas: ["Pahrump"],
    servedZipCodes: ["89048"],
    promises: [],
    trustBadges: [],
    social: null,
    bookingCalendarUrl: "https://example.com/book",
    planRules: {
      changeNoticeHours: 24,
      longestPauseDays: 90,
      horizonDays: 28,
      firstVisitTime: "08:00",
      closedDays: [],
    },
    billingRules: {
      billingDay: 1,
      prorateFirstMonth: true,
      creditSkippedVisits: true,
      graceDays: 7,
      priceChangeNoticeDays: 14,
      invoiceFooter: "Thank you.",
    },
    seo: { title: "Title", description: "Description" },
  };

  function countingSource(result: () => unknown) {
    const fetch = vi.fn(async () => result());
    const source: ContentSource = { kind: "dataset", fetch };
    return { source, fetch };
  }

  test("results are cached per query and parameters, and clear() forgets them all", async () => {
    const { source, fetch } = countingSource(() => settings);
    const store = createContentStore({ source });
    await store.getSiteSettings();
    await store.getSiteSettings();
    expect(fetch).toHaveBeenCalledTimes(1);
    store.clear();
    await store.getSiteSettings();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  test("content that does not match its schema is rejected where it enters", async () => {
    const { source } = countingSource(() => ({ ...settings, email: "not an e-mail" }));
    await expect(createContentStore({ source }).getSiteSettings()).rejects.toThrow(/siteSettings.*schema/);
  });

  test("an unknown plan or legal page is null, not an error", async () => {
    const { source } = countingSource(() => null);
    const store = createContentStore({ source });
    expect(await store.getPlan("nope")).toBeNull();
    expect(await store.getLegalPage("nope")).toBeNull();
  });
});

describe("bounded", () => {
  test("an unknown slug adds no entry", async () => {
    // The source knows no plan: every slug is unknown.
    const fetch = vi.fn<ContentSource["fetch"]>(async () => null);
    const store = createContentStore({ source: { kind: "dataset", fetch } });
    for (let i = 0; i < 200; i++) expect(await store.getPlan(`made-up-${i}`)).toBeNull();
    expect(store.cachedEntries()).toBe(0);
    // The same unknown slug asks the source again each time (nothing was kept).
    await store.getPlan("made-up-1");
    expect(fetch).toHaveBeenCalledTimes(201);
  });

  test("the cache keeps at most maxEntries keys, dropping the least recently used", async () => {
    const cache = createSwrCache<string>({ freshMs: 1000, maxEntries: 3 });
    for (const key of ["a", "b", "c"]) await cache.get(key, async () => key);
    await cache.get("a", async () => "a"); // a is now the most recent
    await cache.get("d", async () => "d");
    expect(cache.size).toBe(3);
    const loads = vi.fn(async () => "again");
    expect(await cache.get("a", loads)).toBe("a");
    expect(await cache.get("b", loads)).toBe("again");
  });
});
