import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readDatasetArchive } from "../../app/content/dataset-archive.server";

/**
 * The bundled dataset (studio/data/production.tar.gz) for tests that check pages against it or
 * serve a changed copy of it. Relative imports: Playwright specs load this too.
 */

export const BUNDLED_DATASET_PATH = path.resolve("studio/data/production.tar.gz");

export type DatasetDoc = Record<string, unknown> & { _id: string; _type: string };

/** Every document of the archive, its images as asset references (as after `sanity dataset import`). */
export function bundledDocuments(): DatasetDoc[] {
  return readDatasetArchive(BUNDLED_DATASET_PATH).documents as DatasetDoc[];
}

/**
 * Writes the bundled dataset, each document passed through `change`, as an export folder
 * (`data.ndjson` + `images/`) under `folder`, and returns the path of its data.ndjson, which
 * CONTENT_DATASET_PATH accepts.
 */
export function writeDatasetCopy(folder: string, change: (doc: DatasetDoc) => DatasetDoc = (doc) => doc): string {
  const archive = readDatasetArchive(BUNDLED_DATASET_PATH);
  mkdirSync(path.join(folder, "images"), { recursive: true });
  for (const [id, bytes] of archive.images) {
    // image-<sha1>-<w>x<h>-<ext> -> <sha1>-<w>x<h>.<ext>, the file name of an export.
    const fileName = id.replace(/^image-/, "").replace(/-([a-z0-9]+)$/, ".$1");
    writeFileSync(path.join(folder, "images", fileName), bytes);
  }
  const lines = (archive.documents as DatasetDoc[]).map((doc) => JSON.stringify(change(structuredClone(doc))));
  const dataPath = path.join(folder, "data.ndjson");
  writeFileSync(dataPath, `${lines.join("\n")}\n`);
  return dataPath;
}
