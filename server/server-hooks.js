// The one contract between server.js and the Remix build (decision 014): app/entry.server.tsx
// exports `serverHooks`, and the server refuses to start when one of them is missing, naming it.
// An optional call (`hook?.()`) would let a renamed hook switch off cache clearing, preview
// isolation or the 503 pages without a word.

/** What each hook is for, by name: the names server.js calls. */
export const SERVER_HOOKS = {
  onContentChanged: "subscribes the page cache to content changes (a publish clears it)",
  runWithRequestContext: "runs each request in its own context (drafts only inside a preview)",
  resourceErrorResponse: "turns a resource route's database failure into a 503",
  startBackgroundWork:
    "starts migrations, purge jobs, the plan visit generator, the content listener and the outbox worker",
};

/** The build's hooks, every one a function; throws naming each one that is missing. */
export function serverHooksOf(build) {
  const hooks = build?.entry?.module?.serverHooks;
  const missing = Object.keys(SERVER_HOOKS).filter((name) => typeof hooks?.[name] !== "function");
  if (missing.length > 0) {
    const list = missing.map((name) => `${name} (${SERVER_HOOKS[name]})`).join(", ");
    throw new Error(`The build's serverHooks (app/entry.server.tsx) lacks ${list}.`);
  }
  return hooks;
}
