// Pages timed over HTTP against a running server, one GET at a time on one kept-alive socket,
// the pages in turns (call i of every page, then call i + 1): pages compared by ratio then see
// the same machine, which on a shared one is what makes the ratio hold. Shared by
// bench/plan-pages.ts and bench/route-order.ts.
import http from "node:http";

export type HttpAnswer = { status: number; ms: number; body: string };
/** A page's target: its URL and the cookie of the user it is rendered for. */
export type HttpTarget = { url: string; cookie: string };
export type HttpTiming = { p50: number; p95: number; kb: number };

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET of an HTML page with this cookie: its status, wall time and body. */
export function httpGet(url: string, cookie: string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: { Cookie: cookie, Accept: "text/html" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
  });
}

/** Closes the kept-alive socket (at the end of a bench, or Node waits for it). */
export function closeHttp() {
  agent.destroy();
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * p50 / p95 of `calls` GETs of each page after `warmup` untimed ones, in turns, each call the
 * next of the page's targets. Each page's first answer must be a 200 containing every one of
 * `mustContain` (the page really rendered what is measured); its size is reported.
 */
export async function timeHttpInTurns(
  pages: { targets: HttpTarget[]; mustContain: string | string[] }[],
  options: { calls: number; warmup?: number },
): Promise<HttpTiming[]> {
  const warmup = options.warmup ?? 30;
  const kb: number[] = [];
  for (const { targets, mustContain } of pages) {
    const first = await httpGet(targets[0].url, targets[0].cookie);
    const missing = [mustContain].flat().filter((text) => !first.body.includes(text));
    if (first.status !== 200 || missing.length > 0) {
      throw new Error(`${targets[0].url} answered ${first.status} without ${JSON.stringify(missing)}`);
    }
    kb.push(Buffer.byteLength(first.body) / 1024);
  }
  const times = pages.map(() => [] as number[]);
  for (let i = -warmup; i < options.calls; i++) {
    for (const [p, { targets }] of pages.entries()) {
      const target = targets[(i + warmup) % targets.length];
      const r = await httpGet(target.url, target.cookie);
      if (r.status !== 200) throw new Error(`${target.url} answered ${r.status}`);
      if (i >= 0) times[p].push(r.ms);
    }
  }
  return times.map((t, p) => {
    t.sort((a, b) => a - b);
    return { p50: percentile(t, 50), p95: percentile(t, 95), kb: kb[p] };
  });
}
