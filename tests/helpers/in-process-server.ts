import type http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import url from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import express from "express";
import { boundedBodies } from "../../server/body-limits.js";
import { refuseCrossSiteWrites } from "../../server/cross-site.js";
import { createRemixRequest } from "../../server/remix-request.js";
import { requestGuards } from "../../server/request-guards.js";
import { BUILD_FILE, ensureBuild } from "./ensure-build";

export type InProcessServer = {
  /** "http://127.0.0.1:<port>" */
  base: string;
  port: number;
  close(): Promise<void>;
};

/**
 * The production build in this process, behind server.js's request middleware (guards,
 * cross-site refusal, body limits), on a real loopback socket and the test database: for probes
 * that need accounts and rows made by the test itself (tests/attack, tests/corpus). What is
 * about server.js itself (its headers, its log, the TCP peer) runs against `node server.js`
 * instead (app-server.ts). Set the build's environment (DATA_DIR, SMTP_URL...) before calling:
 * it reads it on its first request.
 */
export async function startInProcessServer(options: {
  /** The CSP nonce the build's pages are given. */
  cspNonce: string;
  /** Express's "trust proxy" on (X-Forwarded-For is believed). */
  trustProxy?: boolean;
  /** Serve public/ as server.js does. */
  publicFiles?: boolean;
  /** Answer an error that escapes Remix with a plain-text 500, as server.js does (not Express's page). */
  plainErrors?: boolean;
}): Promise<InProcessServer> {
  ensureBuild();
  const build = (await import(/* @vite-ignore */ url.pathToFileURL(BUILD_FILE).href)) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  const app = express();
  app.disable("x-powered-by");
  if (options.trustProxy) app.set("trust proxy", true);
  app.use(requestGuards(), refuseCrossSiteWrites({ siteUrl: "http://localhost:3000" }), boundedBodies());
  if (options.publicFiles) app.use(express.static("public"));
  app.all("*", async (req, res, next) => {
    try {
      const response = await handle(createRemixRequest(req, res), {
        cspNonce: options.cspNonce,
        clientAddress: req.socket.remoteAddress,
      });
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      if (!response.body) return void res.end();
      await pipeline(Readable.fromWeb(response.body as never), res);
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      next(error);
    }
  });
  if (options.plainErrors) {
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res
        .status(500)
        .type("text/plain")
        .send(`Unexpected Application Error! ${String(error)}`);
    });
  }
  const server: http.Server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
