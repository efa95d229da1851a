import type { StorageConfig } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { EncryptedStorage } from './encrypted-storage.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** The configured store (local directory by default, S3 when STORAGE_BACKEND=s3), always encrypted. */
export function createStorage(config: StorageConfig, secretsStorageKey: string): EncryptedStorage {
  let blobs: BlobStore;
  if (config.backend === 's3') {
    if (!config.s3Bucket) throw new Error('STORAGE_BACKEND=s3 needs S3_BUCKET');
    blobs = new S3BlobStore({
      bucket: config.s3Bucket,
      region: config.s3Region,
      endpoint: config.s3Endpoint,
      forcePathStyle: config.s3ForcePathStyle,
    });
  } else {
    blobs = new LocalBlobStore(config.dir);
  }
  return new EncryptedStorage(blobs, config.keyHex ?? secretsStorageKey);
}
