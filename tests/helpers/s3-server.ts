import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3StorageOptions } from "~/utils/storage.server";

export type LocalS3 = {
  options: S3StorageOptions;
  client: S3Client;
  close(): Promise<void>;
};

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1, on a free port, keeping its objects in a
 * temporary folder; the bucket is created through the S3 API like on a real service.
 */
export async function startLocalS3(bucket = "service-images"): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const { port } = await server.run();
  // s3rver's built-in account.
  const options: S3StorageOptions = {
    bucket,
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  };
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: true,
    credentials: options.credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    options,
    client,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
