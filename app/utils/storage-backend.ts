import type { Readable } from "node:stream";

/** Inclusive byte range, as in HTTP's Range header. */
export type ByteRange = { start: number; end: number };

export type StoredObject = {
  /** The bytes of the object, or of the range asked for. */
  body: Readable;
  /** Size of the whole object. */
  size: number;
  range?: ByteRange;
};

/** Where media live: an S3 bucket or a local folder. Keys are created by `storeUpload`. */
export interface StorageBackend {
  readonly kind: "s3" | "folder";
  /** Streams `body` to `key`. Rejects, storing nothing, when `body` errors. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<void>;
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
}

export type S3StorageOptions = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Called with the name of every command sent (tests check that refused uploads are aborted). */
  onCommand?: (name: string) => void;
};
