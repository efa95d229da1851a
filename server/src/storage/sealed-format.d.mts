/** Types of sealed-format.mjs (plain JavaScript, shared with the storage worker thread). */
export declare const MAGIC: Buffer;
export declare const NONCE_BYTES: number;
export declare const TAG_BYTES: number;
export declare const SEAL_OVERHEAD: number;
export declare function seal(key: Uint8Array, name: string, plaintext: Uint8Array): Buffer;
export declare function open(key: Uint8Array, name: string, sealed: Uint8Array): Buffer;
