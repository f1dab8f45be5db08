import pg from "pg";
import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { clearContentCache, readFromOriginFor } from "./content.server";

/**
 * A publish reaches every machine: the webhook (on whichever machine Fly routed it to) sends
 * NOTIFY on this PostgreSQL channel, and every process LISTENs on its own connection and drops
 * its content cache and its page cache. With PGlite there is one process, so the news stays in it.
 * See docs/decisions/061-content-changes-on-every-machine.md.
 */
export const CONTENT_CHANNEL = "content_changed";

/** After a publish, Sanity's CDN may answer with the old document for a while: ask the API. */
const ORIGIN_AFTER_PUBLISH_MS = 2 * 60_000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

type Listener = (reason: string) => void;
type State = {
  listeners: Set<Listener>;
  client?: pg.Client;
  started: boolean;
  stopped: boolean;
  timer?: NodeJS.Timeout;
};

// On globalThis so that a development rebuild does not open a second listening connection.
const globalState = globalThis as typeof globalThis & { __contentEvents?: State };
const state: State = (globalState.__contentEvents ??= { listeners: new Set(), started: false, stopped: false });

/** Called on every content change this process learns of (server.js clears its page cache). */
export function onContentChanged(listener: Listener): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

/** Drops this process's caches; the next request reads content again. */
export function contentChanged(reason: string) {
  readFromOriginFor(ORIGIN_AFTER_PUBLISH_MS);
  clearContentCache();
  for (const listener of state.listeners) {
    try {
      listener(reason);
    } catch (error) {
      log.error("content.listener_failed", errorFields(error));
    }
  }
  log.info("content.changed", { reason });
}

/**
 * Tells every process that content changed. This process clears at once; the others hear the
 * NOTIFY (this one hears it too, and clearing twice costs nothing).
 */
export async function announceContentChange() {
  contentChanged("publish");
  const url = getEnv().DATABASE_URL;
  if (!url) return; // PGlite: one process, already cleared
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query("SELECT pg_notify($1, $2)", [CONTENT_CHANNEL, String(Date.now())]);
  } finally {
    await client.end().catch(() => {});
  }
}

function scheduleReconnect(url: string, delay: number) {
  if (state.stopped || state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    void connectListener(url, Math.min(delay * 2, RECONNECT_MAX_MS));
  }, delay);
  state.timer.unref();
}

async function connectListener(url: string, nextDelay: number) {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  state.client = client;
  let lost = false;
  const onLost = (error?: Error) => {
    if (lost) return;
    lost = true;
    if (state.client === client) state.client = undefined;
    client.end().catch(() => {});
    if (state.stopped) return;
    log.warn("content.listen_lost", error ? errorFields(error) : {});
    scheduleReconnect(url, RECONNECT_MIN_MS);
  };
  client.on("error", onLost);
  client.on("end", () => onLost());
  client.on("notification", (message) => {
    if (message.channel === CONTENT_CHANNEL) contentChanged("notify");
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${CONTENT_CHANNEL}`);
    // Any publish while this process was not listening was missed: start from fresh content.
    contentChanged("listening");
  } catch (error) {
    if (lost) return;
    lost = true;
    if (state.client === client) state.client = undefined;
    client.end().catch(() => {});
    log.warn("content.listen_failed", errorFields(error));
    scheduleReconnect(url, nextDelay);
  }
}

/** Starts this process's listening connection (PostgreSQL only); called once at server start. */
export function listenForContentChanges() {
  const url = getEnv().DATABASE_URL;
  if (!url || state.started) return;
  state.started = true;
  state.stopped = false;
  void connectListener(url, RECONNECT_MIN_MS);
}

/** Tests: closes the listening connection and forgets the listeners. */
export async function stopListening() {
  state.stopped = true;
  state.started = false;
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  const client = state.client;
  state.client = undefined;
  await client?.end().catch(() => {});
}
