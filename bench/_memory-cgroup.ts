// A memory cgroup of a given size for a bench's server, as a Fly machine's memory is: cgroup v2
// (memory.max) or v1 (memory.limit_in_bytes, and the same for memory+swap so that nothing swaps).
// Made under /sys/fs/cgroup and removed afterwards; null (with the reason) where this machine does
// not allow it (not root, no memory controller), so that the bench says so instead of failing.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export type MemoryCgroup = {
  dir: string;
  /** The most memory the cgroup's processes used at once, in MiB. */
  peakMiB(): number;
  /** How many times the limit was hit (the kernel reclaimed or killed to stay under it). */
  limitHits(): number;
  remove(): void;
};

const ROOT = "/sys/fs/cgroup";
const read = (file: string) => {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
};

export function makeMemoryCgroup(name: string, mib: number): MemoryCgroup | { unavailable: string } {
  const bytes = String(mib * 1024 * 1024);
  const v2 =
    existsSync(path.join(ROOT, "cgroup.controllers")) && read(path.join(ROOT, "cgroup.controllers")).includes("memory");
  const dir = v2 ? path.join(ROOT, name) : path.join(ROOT, "memory", name);
  try {
    mkdirSync(dir);
    if (v2) {
      writeFileSync(path.join(dir, "memory.max"), bytes);
      if (existsSync(path.join(dir, "memory.swap.max"))) writeFileSync(path.join(dir, "memory.swap.max"), "0");
    } else {
      writeFileSync(path.join(dir, "memory.limit_in_bytes"), bytes);
      const swap = path.join(dir, "memory.memsw.limit_in_bytes");
      if (existsSync(swap)) writeFileSync(swap, bytes);
    }
  } catch (error) {
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return { unavailable: `no memory cgroup here (${(error as Error).message.split("\n")[0]})` };
  }
  return {
    dir,
    peakMiB: () => Number(read(path.join(dir, v2 ? "memory.peak" : "memory.max_usage_in_bytes")) || 0) / 1024 / 1024,
    limitHits: () =>
      v2
        ? Number(/\bmax (\d+)/.exec(read(path.join(dir, "memory.events")))?.[1] ?? 0)
        : Number(read(path.join(dir, "memory.failcnt")) || 0),
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // a process still in it (killed late): the kernel frees it once that is gone
      }
    },
  };
}
