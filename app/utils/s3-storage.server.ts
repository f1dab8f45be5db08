import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3StorageOptions, StorageBackend } from "./storage-backend";

/**
 * The S3 backend (AWS, Fly's Tigris, Cloudflare R2, MinIO, s3rver in tests), in a module of its
 * own: storage.server.ts loads it, and the AWS SDK with it (~25 MiB resident), only when the
 * first object is read or written (decision 077). Keys are checked there before they get here.
 */

/**
 * Part size of multipart uploads (S3's minimum) and parts in flight: together they bound the
 * memory of an upload (about 3 parts: one sending, one filling, one being joined). One part
 * in flight is enough: the phone sending the file is slower than the server sending to S3.
 */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 1;

function isNotFound(error: unknown) {
  if (error instanceof S3ServiceException) {
    return error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404;
  }
  return false;
}

export function createS3Backend(options: S3StorageOptions): StorageBackend {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // S3-compatible services (R2, Tigris, MinIO, s3rver) do not all accept the SDK's default
    // CRC32 trailers on streamed bodies; only send checksums where the operation requires them.
    ...(options.endpoint
      ? { requestChecksumCalculation: "WHEN_REQUIRED" as const, responseChecksumValidation: "WHEN_REQUIRED" as const }
      : {}),
  });
  const Bucket = options.bucket;
  const { onCommand } = options;
  if (onCommand) {
    client.middlewareStack.add(
      (next, context) => (args) => {
        onCommand(context.commandName ?? "unknown");
        return next(args);
      },
      { step: "initialize", name: "recordCommands" },
    );
  }

  return {
    kind: "s3",
    async put(key, body, { contentType }) {
      // Streams in 5 MB parts; lib-storage aborts the multipart upload when the body errors
      // (leavePartsOnError: false), so a refused upload leaves no parts behind.
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        body.destroy();
        throw error;
      }
    },
    async get(key, range) {
      try {
        const result = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!(result.Body instanceof Readable)) throw new Error("S3 returned a body that is not a Node stream");
        const total = range ? Number(/\/(\d+)$/.exec(result.ContentRange ?? "")?.[1]) : Number(result.ContentLength);
        if (!Number.isFinite(total)) throw new Error("S3 returned no object size");
        return { body: result.Body, size: total, range };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: Number(result.ContentLength ?? 0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
