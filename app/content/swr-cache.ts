/**
 * An in-process stale-while-revalidate cache for one kind of value. A value is fresh for
 * `freshMs`; after that the stale value is served at once while one refresh runs in the
 * background. A failed refresh keeps the stale value, so an outage of the content source never
 * takes down a page that has been served once. Concurrent misses for one key share one load.
 */

import { LRUCache } from "lru-cache";

type Entry<T> = { value: T; freshUntil: number; refreshing: boolean };

/** Enough for every page of the site many times over; keys come from URLs, so there must be a bound. */
export const DEFAULT_MAX_ENTRIES = 500;

export type SwrCacheOptions<T = unknown> = {
  freshMs: number;
  now?: () => number;
  onRefreshError?: (key: string, error: unknown) => void;
  /** At most this many keys are kept; the least recently used goes first. */
  maxEntries?: number;
  /**
   * Whether a loaded value is worth keeping. A lookup that found nothing (an unknown slug in a
   * URL) is answered but not stored, so made-up URLs cannot fill the cache.
   */
  keep?: (value: T) => boolean;
};

export type SwrCache<T> = {
  /** Keys held (tests check the bound). */
  readonly size: number;
  get(key: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
};

export function createSwrCache<T>({
  freshMs,
  now = Date.now,
  onRefreshError,
  maxEntries = DEFAULT_MAX_ENTRIES,
  keep = () => true,
}: SwrCacheOptions<T>): SwrCache<T> {
  const entries = new LRUCache<string, Entry<T>>({ max: maxEntries });
  const misses = new Map<string, Promise<T>>();
  // Bumped by clear(): a load that started before a clear must not store what it fetched,
  // or a webhook's clear could be undone by a refresh that read the old content.
  let generation = 0;

  function store(key: string, value: T, startedIn: number) {
    if (startedIn !== generation) return;
    if (keep(value)) entries.set(key, { value, freshUntil: now() + freshMs, refreshing: false });
    else entries.delete(key);
  }

  function refresh(key: string, entry: Entry<T>, load: () => Promise<T>) {
    entry.refreshing = true;
    const startedIn = generation;
    load().then(
      (value) => store(key, value, startedIn),
      (error: unknown) => {
        entry.refreshing = false;
        onRefreshError?.(key, error);
      },
    );
  }

  return {
    get size() {
      return entries.size;
    },
    get(key, load) {
      const entry = entries.get(key);
      if (entry) {
        if (entry.freshUntil <= now() && !entry.refreshing) refresh(key, entry, load);
        return Promise.resolve(entry.value);
      }
      const pending = misses.get(key);
      if (pending) return pending;
      const startedIn = generation;
      const miss = load().then((value) => {
        store(key, value, startedIn);
        return value;
      });
      misses.set(key, miss);
      const forget = () => {
        if (misses.get(key) === miss) misses.delete(key);
      };
      miss.then(forget, forget);
      return miss;
    },
    clear() {
      generation++;
      entries.clear();
      misses.clear();
    },
  };
}
