import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Per-request facts that content reads deep below the loaders, without threading the request
 * through every call: today only whether this request previews drafts. server.js wraps each
 * request in `runWithRequestContext` (entry.server.tsx's serverHooks).
 */
export type RequestContext = { preview: boolean };

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The current request's context; outside a request (scripts, tests), nothing is previewed. */
export function currentRequestContext(): RequestContext {
  return storage.getStore() ?? { preview: false };
}
