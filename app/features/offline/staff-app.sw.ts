/**
 * The technician's phone app's service worker (docs/decisions/127), built with Serwist by
 * scripts/build-service-worker.mjs into /admin-dashboard/sw.js, so its scope is the staff pages
 * and nothing public. It keeps, for the signed-in staff member only:
 * - the offline shell, precached: the stylesheet, the staff app's script, the static page's
 *   scripts and the icons (the list is written in at build time);
 * - Today and the visit pages of today's stops, network first with the cache as the fallback:
 *   Today's script names the stops (a "route" message) and the worker fetches them with the
 *   session, dropping every cached visit page not on that list;
 * - the fingerprinted build files the pages load (cache first: a name never changes content).
 * A page that answers with the sign-in page, another person's "user" message, or a "sign-out"
 * message empties every cache it keeps. Browser (worker) code only.
 */
import { CacheFirst, ExpirationPlugin, NetworkFirst, Serwist, type PrecacheEntry, type SerwistPlugin } from "serwist";
import { BACKGROUND_FETCH_HEADER } from "~/utils/background-fetch";

type WorkerScope = {
  __SW_MANIFEST: (PrecacheEntry | string)[];
  addEventListener(type: "message", listener: (event: MessageLike) => void): void;
  location: Location;
};
type MessageLike = { data: unknown; waitUntil(promise: Promise<unknown>): void };

declare const self: WorkerScope;

export const PAGES_CACHE = "staff-pages";
export const ASSETS_CACHE = "staff-assets";
/** Whose pages the caches hold: a cache of its own, so that pruning the pages never drops it. */
const USER_CACHE = "staff-user";
const USER_KEY = "/__staff-app/user";
const TODAY = "/admin-dashboard/visits/today";
const VISIT_PAGE = /^\/admin-dashboard\/visits\/[0-9a-f-]{36}\/?$/i;

/** Today (its first page) or one visit's page: the only pages kept for offline. */
const isFieldPage = (url: URL) =>
  (url.pathname === TODAY && !url.searchParams.has("after")) || VISIT_PAGE.test(url.pathname);

async function forgetEverything() {
  await Promise.all([caches.delete(PAGES_CACHE), caches.delete(ASSETS_CACHE)]);
  await (await caches.open(USER_CACHE)).delete(USER_KEY);
}

/**
 * The response to keep, or null. A field page that answers with a redirect was refused: signed
 * out (to the sign-in page) or no longer this person's (to their home). Either way nothing of
 * the route stays: the next Today, read with the session, fills the cache again.
 */
async function keepable(response: Response): Promise<Response | null> {
  if (response.type === "opaqueredirect" || response.redirected) {
    await forgetEverything();
    return null;
  }
  return response.ok ? response : null;
}

const signedOutForgets: SerwistPlugin = { cacheWillUpdate: ({ response }) => keepable(response) };

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  skipWaiting: true,
  clientsClaim: true,
  navigationPreload: false,
  runtimeCaching: [
    {
      matcher: ({ url, sameOrigin, request }) => sameOrigin && request.method === "GET" && isFieldPage(url),
      handler: new NetworkFirst({ cacheName: PAGES_CACHE, networkTimeoutSeconds: 6, plugins: [signedOutForgets] }),
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/build/"),
      handler: new CacheFirst({ cacheName: ASSETS_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 120 })] }),
    },
  ],
});
serwist.addEventListeners();

/** The route's pages, fetched now with the session; visit pages no longer on it are dropped. */
async function keepRoute(urls: string[]) {
  const wanted = new Set(
    urls
      .map((u) => new URL(u, self.location.href))
      .filter(isFieldPage)
      .map((u) => u.href),
  );
  const cache = await caches.open(PAGES_CACHE);
  for (const request of await cache.keys()) {
    if (!wanted.has(request.url) && new URL(request.url).pathname !== TODAY) await cache.delete(request);
  }
  for (const href of wanted) {
    const response = await fetch(href, {
      credentials: "same-origin",
      redirect: "manual",
      // Not a navigation: the flash toast stays for the page the person is opening.
      headers: { [BACKGROUND_FETCH_HEADER]: "1" },
    }).catch(() => null);
    if (!response) return;
    const kept = await keepable(response);
    if (!kept) return;
    await cache.put(href, kept);
  }
}

/** Another staff member signed in on this phone: nothing of the one before stays. */
async function becomeUser(userId: string) {
  const users = await caches.open(USER_CACHE);
  const marker = await users.match(USER_KEY);
  const previous = marker ? await marker.text() : null;
  if (previous !== userId) {
    await forgetEverything();
    await users.put(USER_KEY, new Response(userId));
  }
}

self.addEventListener("message", (event) => {
  const data = event.data as { type?: string; userId?: string; urls?: string[] } | null;
  if (data?.type === "user" && data.userId) event.waitUntil(becomeUser(data.userId));
  else if (data?.type === "route" && data.userId && Array.isArray(data.urls))
    event.waitUntil(becomeUser(data.userId).then(() => keepRoute(data.urls!)));
  else if (data?.type === "sign-out") event.waitUntil(forgetEverything());
});
