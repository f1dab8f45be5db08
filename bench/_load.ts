// The benchmarks' one load tool: autocannon (an npm package, so `npm install` brings it; no
// system binary). Every figure of bench/ that is "under load" comes through here.
import autocannon from "autocannon";

export type LoadResult = {
  /** Answered requests per second. */
  rps: number;
  /** Latency percentiles and maximum, in ms, over every answered request. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  requests: number;
  /** Connection errors, timeouts and 4xx/5xx answers (as wrk counted them). */
  errors: number;
  /** autocannon's own summary (status codes, timeouts...). */
  result: autocannon.Result;
};

/** The value below which p percent of the sorted list lies. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

/**
 * Load on one base URL for `duration` seconds with `connections` users (16 unless given), either
 * its own GET or autocannon's `requests` mix. autocannon reports no p95, so the latencies are
 * kept and sorted here.
 */
export async function runLoad(options: autocannon.Options): Promise<LoadResult> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections: 16, ...options }, (error: Error | null, done: autocannon.Result) =>
      error ? reject(error) : resolve(done),
    );
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
      latencies.push(responseTime),
    );
  });
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / (result.duration || Number(options.duration) || 1),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result["4xx"] + result["5xx"],
    result,
  };
}
