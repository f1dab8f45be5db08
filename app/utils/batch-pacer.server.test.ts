import { describe, expect, it } from "vitest";
import { batchPacer } from "./batch-pacer.server";

describe("batchPacer", () => {
  it("waits as long as the batch took, within its bounds, and counts the next batch from the end of the wait", async () => {
    let now = 0;
    const waits: number[] = [];
    const pace = batchPacer({
      clock: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    now += 40; // a 40 ms batch
    await pace();
    now += 2; // a quick one: the floor
    await pace();
    now += 5000; // a slow one: the ceiling
    await pace();
    expect(waits).toEqual([40, 5, 1000]);
  });

  it("scales the wait by its ratio", async () => {
    let now = 0;
    const waits: number[] = [];
    const pace = batchPacer({ ratio: 3, clock: () => now, sleep: async (ms) => void waits.push(ms) });
    now += 100;
    await pace();
    expect(waits).toEqual([300]);
  });
});
