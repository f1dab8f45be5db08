import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import { evaluate, parse } from "groq-js";

/**
 * A stand-in for Sanity's query API on 127.0.0.1: it answers what @sanity/client sends,
 * `GET /v<apiVersion>/data/query/<dataset>?query=...&$param=<JSON>` (or POST with a JSON body
 * for long queries), by evaluating the GROQ with groq-js over the given documents, and replies
 * `{query, result, ms}` like the real API.
 *
 * Perspectives as the real API applies them: `published` (the default) hides drafts; `drafts`
 * (or its old name `previewDrafts`) shows each draft in place of its published document; `raw`
 * shows everything. The last two need a token (`Authorization: Bearer <token>`), as on a
 * private dataset: without the right one the answer is 401.
 */

export type RecordedRequest = { method: string; pathname: string; searchParams: URLSearchParams };

export type SanityApiMock = {
  apiHost: string;
  requests: RecordedRequest[];
  setDocuments(documents: unknown[]): void;
  close(): Promise<void>;
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

type Doc = { _id: string };
const isDoc = (value: unknown): value is Doc =>
  typeof value === "object" && value !== null && typeof (value as Doc)._id === "string";

/** The documents one perspective sees. */
export function applyPerspective(documents: unknown[], perspective: string): unknown[] {
  if (perspective === "raw") return documents;
  const published = documents.filter((doc) => isDoc(doc) && !doc._id.startsWith("drafts."));
  if (perspective !== "drafts" && perspective !== "previewDrafts") return published;
  const drafts = new Map(
    documents
      .filter((doc): doc is Doc => isDoc(doc) && doc._id.startsWith("drafts."))
      .map((doc) => [doc._id.slice("drafts.".length), { ...doc, _id: doc._id.slice("drafts.".length) }]),
  );
  const merged = published.map((doc) => (isDoc(doc) && drafts.get(doc._id)) || doc);
  const publishedIds = new Set(published.filter(isDoc).map((doc) => doc._id));
  return [...merged, ...[...drafts.values()].filter((doc) => !publishedIds.has(doc._id))];
}

export async function startSanityApiMock(options: {
  documents: unknown[];
  dataset: string;
  /** The token that unlocks the drafts and raw perspectives. */
  token?: string;
}): Promise<SanityApiMock> {
  let documents = options.documents;
  const requests: RecordedRequest[] = [];

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push({ method: request.method ?? "GET", pathname: url.pathname, searchParams: url.searchParams });
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const match = /^\/v[^/]+\/data\/query\/([^/]+)$/.exec(url.pathname);
    if (!match || match[1] !== options.dataset) return reply(404, { error: "Not found" });

    try {
      let query: string | null = null;
      const params: Record<string, unknown> = {};
      if (request.method === "POST") {
        const body: { query?: string; params?: Record<string, unknown> } = JSON.parse(await readBody(request));
        query = body.query ?? null;
        Object.assign(params, body.params);
      } else {
        query = url.searchParams.get("query");
        for (const [name, value] of url.searchParams) {
          if (name.startsWith("$")) params[name.slice(1)] = JSON.parse(value);
        }
      }
      if (!query) return reply(400, { error: "Missing query" });
      const perspective = url.searchParams.get("perspective") ?? "published";
      if (perspective !== "published" && request.headers.authorization !== `Bearer ${options.token ?? ""}`) {
        return reply(401, { error: "Unauthorized", message: `The ${perspective} perspective needs a valid token` });
      }
      const started = performance.now();
      const dataset = applyPerspective(documents, perspective);
      const result = await (await evaluate(parse(query, { params }), { dataset, params })).get();
      reply(200, { query, result, ms: Math.round(performance.now() - started) });
    } catch (error) {
      reply(400, { error: { description: error instanceof Error ? error.message : String(error) } });
    }
  });

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("Sanity API mock did not bind a port");
  const { port } = address;

  return {
    apiHost: `http://127.0.0.1:${port}`,
    requests,
    setDocuments(next) {
      documents = next;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
