import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { list } from "tar";

/**
 * Before and after pictures for the development seed: the bundled dataset's Before & After pairs
 * (studio/data/production.tar.gz, as `sanity dataset export` writes it; the content layer reads
 * the same file, app/content/dataset-archive.server.ts). Development only: loaded with the seed.
 */

/** The bundled dataset, relative to the working directory (as the content layer finds it). */
export const SEED_DATASET_PATH = "studio/data/production.tar.gz";

/** What the seed needs of the app's storage (app/utils/storage-backend.ts): db/ imports no app type. */
export type SeedStorage = {
  put(key: string, body: Readable, options: { contentType: string }): Promise<void>;
};

export type SeedPhoto = { bytes: Buffer; contentType: string; extension: string };
export type SeedPhotoPair = { before: SeedPhoto; after: SeedPhoto };

const IMAGE_FILE = /(?:^|\/)images\/([a-f0-9]{40}-\d+x\d+)\.(png|jpe?g|webp)$/;
const PLACEHOLDER = /^image@file:\/\/\.\/images\/([a-f0-9]{40}-\d+x\d+)\.[a-z]+$/;
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

type BeforeAfterDoc = {
  _id?: string;
  _type?: string;
  before?: { _sanityAsset?: string };
  after?: { _sanityAsset?: string };
};

/** The published Before & After pairs of the dataset, in the dataset's order. */
export async function readSeedPhotoPairs(file = SEED_DATASET_PATH): Promise<SeedPhotoPair[]> {
  const images = new Map<string, SeedPhoto>();
  let ndjson = "";
  await list({
    file,
    onReadEntry(entry) {
      const image = IMAGE_FILE.exec(entry.path);
      const isData = entry.path.endsWith("data.ndjson");
      if (!image && !isData) return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => {
        const bytes = Buffer.concat(chunks);
        if (isData) ndjson = bytes.toString("utf8");
        else if (image) images.set(image[1], { bytes, extension: image[2], contentType: CONTENT_TYPES[image[2]] });
      });
    },
  });
  const photoOf = (placeholder: string | undefined) => {
    const name = placeholder ? PLACEHOLDER.exec(placeholder)?.[1] : undefined;
    return name ? images.get(name) : undefined;
  };
  const pairs: SeedPhotoPair[] = [];
  for (const line of ndjson.split("\n")) {
    if (!line.trim()) continue;
    const doc = JSON.parse(line) as BeforeAfterDoc;
    if (doc._type !== "beforeAfter" || doc._id?.startsWith("drafts.")) continue;
    const before = photoOf(doc.before?._sanityAsset);
    const after = photoOf(doc.after?._sanityAsset);
    if (before && after) pairs.push({ before, after });
  }
  return pairs;
}

/** `npm run db:seed` runs without the app: the folder backend's layout, `${root}/{key}`. */
export function seedFolderStorage(root: string): SeedStorage {
  return {
    async put(key, body) {
      const file = path.join(root, ...key.split("/"));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body);
    },
  };
}

/** Bytes as the stream the app's storage takes. */
export function streamOf(bytes: Buffer): Readable {
  return Readable.from([bytes]);
}
