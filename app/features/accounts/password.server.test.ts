import { describe, expect, it } from "vitest";
import {
  hashPassword,
  PASSWORD_QUEUE_MAX_WAIT_MS,
  PasswordQueueBusy,
  SCRYPT_CONCURRENCY,
  scryptLoad,
  setAverageHashMsForTests,
  verifyPassword,
} from "./password.server";

describe("password hashing", () => {
  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("s3cret-pass");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain("s3cret-pass");
    await expect(verifyPassword("s3cret-pass", hash)).resolves.toBe(true);
    await expect(verifyPassword("s3cret-pasS", hash)).resolves.toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("rejects missing or malformed hashes without throwing", async () => {
    await expect(verifyPassword("x", null)).resolves.toBe(false);
    await expect(verifyPassword("x", "md5$abc")).resolves.toBe(false);
    await expect(verifyPassword("x", "scrypt$a$b$c$d$e")).resolves.toBe(false);
  });

  it("a burst of sign-ins runs at most SCRYPT_CONCURRENCY hashes at once; the rest wait", async () => {
    const seen: { running: number; waiting: number }[] = [];
    const burst = Array.from({ length: 8 }, (_, i) => hashPassword(`burst-${i}`));
    const sampler = setInterval(() => seen.push(scryptLoad()), 2);
    const hashes = await Promise.all(burst);
    clearInterval(sampler);
    expect(new Set(hashes).size).toBe(8);
    expect(Math.max(...seen.map((s) => s.running))).toBe(SCRYPT_CONCURRENCY);
    expect(Math.max(...seen.map((s) => s.waiting))).toBeGreaterThan(0);
    expect(scryptLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses stored parameters that would need more than 64 MiB, without hashing", async () => {
    const hash = await hashPassword("pw");
    const greedy = hash.replace(/^scrypt\$32768\$/, "scrypt$1048576$");
    await expect(verifyPassword("pw", greedy)).resolves.toBe(false);
  });

  it("refuses at once a hash that would wait past the limit, and runs it again once the queue is short", async () => {
    const hash = await hashPassword("pw");
    setAverageHashMsForTests(PASSWORD_QUEUE_MAX_WAIT_MS + 1);
    try {
      const started = performance.now();
      const refused = await verifyPassword("pw", hash).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(PasswordQueueBusy);
      expect((refused as PasswordQueueBusy).retryAfterSeconds).toBeGreaterThan(0);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      setAverageHashMsForTests(100);
    }
    await expect(verifyPassword("pw", hash)).resolves.toBe(true);
  });
});
