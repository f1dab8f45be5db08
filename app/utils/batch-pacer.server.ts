/**
 * Paces background work that goes in batches (the plan visit generator, the billing run) so that
 * requests keep the machine (decision 099): each call, made between two batches, waits as long
 * as the batch since the previous call took, times `ratio`, within [minMs, maxMs]. With ratio 1
 * the work has the CPU and the database half the time at most, and a request never waits behind
 * more than one batch. The wait is a timer, so every request that arrived meanwhile is served.
 */
export type BatchPacer = () => Promise<void>;

export function batchPacer({
  ratio = 1,
  minMs = 5,
  maxMs = 1000,
  clock = () => performance.now(),
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
}: {
  ratio?: number;
  minMs?: number;
  maxMs?: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
} = {}): BatchPacer {
  let batchStarted = clock();
  return async () => {
    const worked = clock() - batchStarted;
    await sleep(Math.min(maxMs, Math.max(minMs, worked * ratio)));
    batchStarted = clock();
  };
}
