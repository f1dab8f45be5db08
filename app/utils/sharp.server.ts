import type { SharpConstructor } from "sharp";

let sharpModule: Promise<SharpConstructor> | undefined;

/**
 * sharp and libvips, loaded by the first use: they take ~22 MiB of resident memory, and a
 * machine that never renders an image (Sanity's own CDN configured, no photo e-mail due) never
 * pays for them (decision 077). One libvips thread per job (callers bound their own parallelism),
 * and no libvips operation cache: its default 50 MB would be a fifth of the machine.
 */
export function loadSharp() {
  sharpModule ??= import("sharp").then((module) => {
    const sharp = module.default as SharpConstructor;
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}
