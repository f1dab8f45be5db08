import { afterEach, expect, test, vi } from "vitest";
import { contentChanged, onContentChanged } from "./content-events.server";
import {
  createContentStore,
  getFaqs,
  readingFromOrigin,
  replaceContentStore,
  type ContentSource,
} from "./content.server";

afterEach(() => {
  vi.useRealTimers();
  replaceContentStore();
});

test("a content change clears the content cache, tells the listeners, and skips the CDN for two minutes", async () => {
  // A list that exists is cached (an unknown slug would not be: it adds no cache entry).
  vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z"), toFake: ["Date"] });
  const fetch = vi.fn<ContentSource["fetch"]>(async () => []);
  replaceContentStore(createContentStore({ source: { kind: "dataset", fetch } }));
  await getFaqs();
  await getFaqs();
  expect(fetch).toHaveBeenCalledTimes(1);
  const heard: string[] = [];
  const stop = onContentChanged((reason) => heard.push(reason));

  expect(readingFromOrigin()).toBe(false);
  contentChanged("publish");
  stop();
  contentChanged("notify"); // no longer heard

  expect(heard).toEqual(["publish"]);
  await getFaqs();
  expect(fetch).toHaveBeenCalledTimes(2);
  expect(readingFromOrigin()).toBe(true);
  vi.setSystemTime(new Date("2026-01-01T00:02:01Z"));
  expect(readingFromOrigin()).toBe(false);
});
