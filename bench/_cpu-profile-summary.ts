// Where a server's CPU time went, from the V8 CPU profiles that `node --cpu-prof` writes: self
// time summed by what ran (the garbage collector, React's server renderer, the PostgreSQL driver,
// Kysely, the app's own build, Node's internals), so that a finding names a cause, not a page.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type ProfileNode = { id: number; callFrame: { functionName: string; url: string } };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** The bucket a frame's self time counts toward. */
export function bucketOf(frame: ProfileNode["callFrame"]): string {
  const name = frame.functionName;
  if (name === "(garbage collector)") return "garbage collector";
  if (name === "(idle)") return "idle";
  if (name === "(program)") return "V8 and native (program)";
  const url = frame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg.startsWith("react-dom") ? "react-dom (server render)" : pkg;
  if (/\/build\//.test(url)) return "the app's build (loaders, components)";
  if (url.startsWith("node:")) return `node internals (${url.slice(5).split("/")[0]})`;
  if (url === "") return "native and builtins";
  return "other";
}

/** Self time per bucket, in ms, over every profile in a folder, busiest first; idle left out. */
export function summariseProfiles(dir: string): { bucket: string; ms: number; share: number }[] {
  const totals = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    const bucketById = new Map(profile.nodes.map((node) => [node.id, bucketOf(node.callFrame)]));
    profile.samples.forEach((id, i) => {
      const bucket = bucketById.get(id) ?? "other";
      totals.set(bucket, (totals.get(bucket) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
  }
  totals.delete("idle");
  const busy = [...totals.values()].reduce((a, b) => a + b, 0) || 1;
  return [...totals.entries()].map(([bucket, ms]) => ({ bucket, ms, share: ms / busy })).sort((a, b) => b.ms - a.ms);
}
