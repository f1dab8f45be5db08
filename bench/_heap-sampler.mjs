// Preloaded (`node --import`) by bench/portal-pages.ts into a production server: SIGUSR2 starts
// V8's sampling heap profiler keeping the objects the collector frees (so that the profile counts
// garbage, not only what is still alive), the next SIGUSR2 stops it and writes the profile to the
// next numbered file in HEAP_SAMPLE_DIR (decision 122).
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";

const session = new inspector.Session();
session.connect();
let sampling = false;
let written = 0;
process.on("SIGUSR2", () => {
  if (!sampling) {
    sampling = true;
    session.post("HeapProfiler.startSampling", {
      samplingInterval: 8192,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  sampling = false;
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) return console.error("heap sampler:", error.message);
    const file = path.join(process.env.HEAP_SAMPLE_DIR, `${written++}.heapprofile`);
    fs.writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
    fs.renameSync(`${file}.partial`, file);
  });
});
