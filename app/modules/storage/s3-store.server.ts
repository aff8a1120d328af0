import { DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import { assertStorageKey, assertStoragePrefix, type ObjectStore, type StoredObject } from "./object-store.server";

export type S3Settings = {
  bucket: string;
  region: string;
  /** An S3-compatible server's address (MinIO, Garage, R2, …); unset for AWS itself. */
  endpoint: string | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`: what most self-hosted servers need. */
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
};

/**
 * A bucket on AWS S3 or an S3-compatible server, shared by every instance. Checksums are sent only where the
 * service requires them: several S3-compatible servers store the SDK's default streaming checksum trailer as
 * part of the object.
 */
export function createS3Store(settings: S3Settings): ObjectStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;

  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertStorageKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
    },
    async get(key): Promise<StoredObject | null> {
      assertStorageKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return {
          body: answer.Body as Readable,
          size: answer.ContentLength ?? 0,
          contentType: answer.ContentType ?? "application/octet-stream",
        };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async delete(keys) {
      for (const key of keys) assertStorageKey(key);
      for (let start = 0; start < keys.length; start += 1000) {
        const Objects = keys.slice(start, start + 1000).map((Key) => ({ Key }));
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
    async list(prefix) {
      assertStoragePrefix(prefix);
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
