import v8 from "node:v8";
import vm from "node:vm";

/**
 * Memory figures for the upload tests and benchmarks.
 *
 * A streamed upload allocates and drops many chunks, so raw heap peaks mostly measure garbage.
 * What shows whether an upload is *held* is the live memory (after a full garbage collection)
 * part-way through it: a buffered upload keeps everything received so far, a streamed one a
 * few chunks.
 */
const MiB = 1024 * 1024;
const round = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

let gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;
function collect() {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  gc();
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/**
 * JS heap plus ArrayBuffers (Buffers and Uint8Arrays live there) after full collections. V8
 * frees dead ArrayBuffers' memory on a background thread, hence the second collection after
 * a turn of the event loop.
 */
export async function liveBytes() {
  collect();
  await tick();
  collect();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export type MemoryReport = {
  /** Live memory above the baseline at each checkpoint, in MiB, keyed by MiB sent so far. */
  liveGrowthMiB: Record<number, number>;
  maxLiveGrowthMiB: number;
  /** Peak resident set size above the baseline during the run, in MiB (garbage included). */
  peakRssGrowthMiB: number;
};

/**
 * Runs `run(checkpoint)`; the caller calls `checkpoint(sentBytes)` while it streams, and the
 * live memory is taken there.
 */
export async function measureUpload<T>(run: (checkpoint: (sentBytes: number) => Promise<void>) => Promise<T>) {
  const baseLive = await liveBytes();
  const baseRss = process.memoryUsage.rss();
  let peakRss = baseRss;
  const liveGrowthMiB: Record<number, number> = {};
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  try {
    const result = await run(async (sent) => {
      liveGrowthMiB[Math.round(sent / MiB)] = round((await liveBytes()) - baseLive);
    });
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    const report: MemoryReport = {
      liveGrowthMiB,
      maxLiveGrowthMiB: Math.max(0, ...Object.values(liveGrowthMiB)),
      peakRssGrowthMiB: round(peakRss - baseRss),
    };
    return { result, report };
  } finally {
    clearInterval(timer);
  }
}

/** Wraps a byte source so that `checkpoint` is called after the given numbers of bytes. */
export async function* withCheckpoints(
  source: AsyncIterable<Uint8Array>,
  at: number[],
  checkpoint: (sentBytes: number) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  const pending = [...at].sort((x, y) => x - y);
  let sent = 0;
  for await (const chunk of source) {
    yield chunk;
    sent += chunk.byteLength;
    while (pending.length && sent >= pending[0]) {
      pending.shift();
      await checkpoint(sent);
    }
  }
}
