/**
 * Keyset pagination, for the jobs that walk a large table (the visit generator, the billing run,
 * the payment collection): each batch is read after the key of the last row of the one before,
 * outside any transaction, so that no lock or snapshot is held across the walk. Stops at an empty
 * batch, at a batch shorter than `batchSize` (the last), or when `signal` aborts (the server
 * stops); `betweenBatches` runs before each further read (the jobs' pacer, decision 099).
 */
export async function* keysetBatches<T, K>(
  nextBatch: (after: K | null) => Promise<T[]>,
  options: {
    batchSize: number;
    keyOf: (row: T) => K;
    signal?: AbortSignal;
    betweenBatches?: () => Promise<void>;
  },
): AsyncGenerator<T[]> {
  let after: K | null = null;
  for (;;) {
    if (options.signal?.aborted) return;
    const batch = await nextBatch(after);
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < options.batchSize) return;
    after = options.keyOf(batch[batch.length - 1]);
    await options.betweenBatches?.();
  }
}

/** The key of a table walked by id. */
export const byId = (row: { id: string }) => row.id;
