import { afterEach, expect, test, vi } from "vitest";
import { isValidStorageKey } from "~/utils/storage.server";

afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

test("two machines uploading to one visit in the same millisecond get different keys", async () => {
  vi.useFakeTimers({ now: new Date("2026-03-01T10:00:00.000Z") });
  const customer = "11111111-1111-4111-8111-111111111111";
  const visit = "22222222-2222-4222-8222-222222222222";
  // Each import is a fresh module: a process of its own, with its own timestamp counter.
  const machineA = await import("./visit-media.server");
  vi.resetModules();
  const machineB = await import("./visit-media.server");
  expect(machineA).not.toBe(machineB);
  const keys = new Set<string>();
  for (let i = 0; i < 50; i++) {
    keys.add(machineA.mediaKey(customer, visit, "before", "jpg"));
    keys.add(machineB.mediaKey(customer, visit, "before", "jpg"));
  }
  expect(keys.size).toBe(100);
  for (const key of keys) {
    expect(isValidStorageKey(key), key).toBe(true);
    expect(key).toMatch(new RegExp(`^${customer}/${visit}/before_\\d+\\.jpg$`));
  }
});
