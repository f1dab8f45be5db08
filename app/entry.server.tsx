import { Writable } from "node:stream";
import type {
  ActionFunctionArgs,
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  LoaderFunctionArgs,
} from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { startBackgroundWork } from "./background-work.server";
import { onContentChanged } from "./content/content-events.server";
import { runWithRequestContext } from "./content/preview.server";
import { databaseUnavailablePage, databaseUnavailableResponse } from "./utils/database-unavailable.server";
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from "./utils/database-errors.server";
import { getEnv } from "./utils/env.server";
import { errorFields, log } from "./utils/logger.server";
import { NonceProvider } from "./utils/nonce";

// A bad environment stops the server at start, naming the variable. (Checking starts nothing:
// background work waits for server.js to call serverHooks.startBackgroundWork.)
getEnv();

const ABORT_DELAY = 5_000;

export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  // Remembered for this request: its answer becomes the 503 "try again" page, not a 500.
  if (isDatabaseUnavailable(error)) context.databaseUnavailable = true;
  log.error("request.error", { method: request.method, path: new URL(request.url).pathname, ...errorFields(error) });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { context }) => {
  // A client-side navigation while the database is away: the route's error boundary gets a
  // 503 with the message (X-Remix-Catch makes it a route error response, not a crash).
  if (context.databaseUnavailable)
    return databaseUnavailableResponse(
      { "X-Remix-Catch": "yes", "Content-Type": "text/plain; charset=utf-8" },
      UNAVAILABLE_MESSAGE,
    );
  // Loader data is per-user unless the route says otherwise.
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "private, no-store");
  return response;
};

/**
 * Called by server.js with every answer: a resource route that failed because the database was
 * unreachable gets 503 "try again" (plain text: it is an image, a video or a webhook) instead of
 * Remix's 500. Pages and data requests have their 503 already (handleRequest, handleDataRequest).
 */
function resourceErrorResponse(response: Response, context: AppLoadContext): Response {
  if (!context.databaseUnavailable || response.status !== 500) return response;
  return databaseUnavailableResponse({ "Content-Type": "text/plain; charset=utf-8" }, UNAVAILABLE_MESSAGE);
}

/**
 * Everything server.js needs from the build, in one object that server.js checks at start: a
 * missing hook stops the server naming it (server/server-hooks.js, decision 014).
 */
export const serverHooks = {
  /** server.js subscribes its page cache: a publish seen by any machine clears it. */
  onContentChanged,
  /** server.js runs every request inside this, so that content knows whether it previews drafts. */
  runWithRequestContext,
  resourceErrorResponse,
  /** Migrations, purge jobs, the content listener and the outbox worker: called once by server.js. */
  startBackgroundWork,
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (loadContext.databaseUnavailable) {
    return databaseUnavailableResponse({ "Content-Type": "text/html; charset=utf-8" }, databaseUnavailablePage());
  }
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";

  // The document is sent whole, in one write (decision 077): nothing on the server suspends, so
  // streaming it gained no early byte, but React's 2 KB chunks each went through a web stream to
  // the socket, a system call apiece, which on a 124 KB admin page cost more than its queries.
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const document = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    document.on("finish", () => {
      clearTimeout(timer);
      const body = Buffer.concat(chunks);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.set("Content-Length", String(body.byteLength));
      if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
      resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
          pipe(document);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error("render.error", errorFields(error));
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}
