import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Parser } from "tar";

/**
 * Reads a dataset in the format `sanity dataset export` writes: a `.tar.gz` holding one folder
 * with `data.ndjson` and `images/` (and `files/`), or such a folder's `data.ndjson` (any `.ndjson`)
 * with `images/` beside it. Documents point at their files with placeholders,
 * `"_sanityAsset": "image@file://./images/<sha1>-<w>x<h>.<ext>"`; `sanity dataset import` replaces
 * each with a reference to the uploaded asset, `{"asset": {"_ref": "image-<sha1>-<w>x<h>-<ext>"}}`,
 * and so does this reader, so that the same GROQ and the same image URL builder work on both.
 */

export type DatasetArchive = {
  /** Every document of data.ndjson, drafts included, with asset placeholders made references. */
  documents: unknown[];
  /** Image bytes by asset id (`image-<sha1>-<w>x<h>-<ext>`). */
  images: Map<string, Buffer>;
  /** Placeholders whose file is not in the archive (a broken export). */
  missingAssets: string[];
};

const IMAGE_FILE = /^([a-f0-9]{40})-(\d+x\d+)\.([a-z0-9]+)$/;
const PLACEHOLDER = /^image@file:\/\/\.\/images\/([^/]+)$/;

/** images/<sha1>-<w>x<h>.<ext> -> image-<sha1>-<w>x<h>-<ext>, the id Sanity gives the asset. */
export function imageAssetId(fileName: string): string | null {
  const match = IMAGE_FILE.exec(fileName);
  return match ? `image-${match[1]}-${match[2]}-${match[3]}` : null;
}

export function parseNdjson(text: string, source: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      try {
        const doc: unknown = JSON.parse(line);
        return doc;
      } catch {
        throw new Error(`${source}:${index + 1} is not valid JSON`);
      }
    });
}

/** Replaces `_sanityAsset` placeholders with asset references, as `sanity dataset import` does. */
function resolvePlaceholders(value: unknown, images: Map<string, Buffer>, missing: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => resolvePlaceholders(item, images, missing));
  if (typeof value !== "object" || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "_sanityAsset" && typeof child === "string") {
      const fileName = PLACEHOLDER.exec(child)?.[1];
      const id = fileName ? imageAssetId(fileName) : null;
      if (!id || !images.has(id)) {
        missing.push(child);
        continue;
      }
      result.asset = { _type: "reference", _ref: id };
    } else {
      result[key] = resolvePlaceholders(child, images, missing);
    }
  }
  return result;
}

function assemble(ndjson: string, images: Map<string, Buffer>, source: string): DatasetArchive {
  const missingAssets: string[] = [];
  const documents = parseNdjson(ndjson, source).map((doc) => resolvePlaceholders(doc, images, missingAssets));
  return { documents, images, missingAssets };
}

/** The entries of a tar.gz in memory: the bundled dataset is small (a few hundred kB). */
function untar(bytes: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const parser = new Parser({
    onReadEntry(entry) {
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => {
        if (entry.type === "File") entries.set(entry.path, Buffer.concat(chunks));
      });
    },
  });
  // A synchronous write + end: node-tar parses a whole in-memory buffer before returning.
  parser.end(gunzipSync(bytes));
  return entries;
}

function readArchive(filePath: string): DatasetArchive {
  const entries = untar(readFileSync(filePath));
  // `sanity dataset export` puts everything in one folder (e.g. production-export-2025-...);
  // `sanity dataset import` looks two levels deep, and so does this.
  const dataPath = [...entries.keys()].find((name) => /^(?:[^/]+\/)?data\.ndjson$/.test(name));
  if (!dataPath) throw new Error(`${filePath} holds no data.ndjson`);
  const folder = dataPath.slice(0, -"data.ndjson".length);
  const images = new Map<string, Buffer>();
  for (const [name, bytes] of entries) {
    if (!name.startsWith(`${folder}images/`)) continue;
    const id = imageAssetId(name.slice(`${folder}images/`.length));
    if (id) images.set(id, bytes);
  }
  return assemble(entries.get(dataPath)!.toString("utf8"), images, `${filePath}:${dataPath}`);
}

function readFolder(ndjsonPath: string): DatasetArchive {
  const imagesDir = path.join(path.dirname(ndjsonPath), "images");
  const images = new Map<string, Buffer>();
  let names: string[] = [];
  try {
    names = readdirSync(imagesDir);
  } catch {
    // An export made with --no-assets has no images folder.
  }
  for (const name of names) {
    const id = imageAssetId(name);
    if (id) images.set(id, readFileSync(path.join(imagesDir, name)));
  }
  return assemble(readFileSync(ndjsonPath, "utf8"), images, ndjsonPath);
}

/** Reads a `.tar.gz`/`.tgz` export, or an `.ndjson` file with its `images/` folder beside it. */
export function readDatasetArchive(filePath: string): DatasetArchive {
  return /\.(?:tar\.gz|tgz)$/.test(filePath) ? readArchive(filePath) : readFolder(filePath);
}
