import { describe, expect, it } from "vitest";
import { byId, keysetBatches } from "./keyset-batches.server";

const rows = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}` }));
/** Rows after `after` by id, `limit` at a time, with the keys asked for kept. */
function table(limit: number) {
  const asked: (string | null)[] = [];
  const next = async (after: string | null) => {
    asked.push(after);
    return rows.filter((row) => after === null || row.id > after).slice(0, limit);
  };
  return { asked, next };
}

async function collect<T>(batches: AsyncGenerator<T[]>) {
  const out: T[][] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

describe("keysetBatches", () => {
  it("reads after the last key until a short batch, pacing only between full ones", async () => {
    const { asked, next } = table(3);
    let paced = 0;
    const batches = await collect(
      keysetBatches(next, { batchSize: 3, keyOf: byId, betweenBatches: async () => void (paced += 1) }),
    );
    expect(batches.map((batch) => batch.map(byId))).toEqual([["r0", "r1", "r2"], ["r3", "r4", "r5"], ["r6"]]);
    expect(asked).toEqual([null, "r2", "r5"]);
    expect(paced).toBe(2);
  });

  it("stops at an empty batch (a full last one) and when the signal aborts", async () => {
    const exact = table(7);
    expect((await collect(keysetBatches(exact.next, { batchSize: 7, keyOf: byId }))).length).toBe(1);
    expect(exact.asked).toEqual([null, "r6"]);

    const controller = new AbortController();
    const aborted = table(2);
    const seen: string[][] = [];
    for await (const batch of keysetBatches(aborted.next, { batchSize: 2, keyOf: byId, signal: controller.signal })) {
      seen.push(batch.map(byId));
      controller.abort();
    }
    expect(seen).toEqual([["r0", "r1"]]);
    expect(aborted.asked).toEqual([null]);
  });
});
