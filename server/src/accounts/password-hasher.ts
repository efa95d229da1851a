import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// The package's `Algorithm` is a const enum, which isolated modules cannot read; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** Argon2id parameters. OWASP's minimum is m=19 MiB, t=2, p=1; these are stronger (RFC 9106 low-memory m, t). */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_ARGON2_PARAMS: Argon2Params = { memoryCost: 65536, timeCost: 3, parallelism: 1 };

/** Longest password accepted; far above the 64 characters ASVS asks for, low enough to bound hashing work. */
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * Hashes and verifies passwords with Argon2id. Unknown accounts are verified against a dummy hash
 * made with the same parameters, so a login costs the same whether or not the account exists.
 */
export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly params: Argon2Params = DEFAULT_ARGON2_PARAMS) {}

  /** Makes the dummy hash ahead of the first login, so even that one takes the usual time. */
  warmUp(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(24).toString('base64url'));
    return this.dummy;
  }

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID, ...this.params });
  }

  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await verify(storedHash, password);
    } catch {
      return false; // a malformed stored hash never authenticates
    }
  }

  /** Spends the time of one verification and returns false: the path for accounts that do not exist. */
  async verifyDummy(password: string): Promise<false> {
    await this.verify(await this.warmUp(), password);
    return false;
  }

  /** True when a stored hash was made with weaker parameters (or another algorithm) than today's. */
  needsRehash(storedHash: string): boolean {
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(storedHash);
    if (!m) return true;
    const [memoryCost, timeCost, parallelism] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return (
      memoryCost < this.params.memoryCost ||
      timeCost < this.params.timeCost ||
      parallelism < this.params.parallelism
    );
  }
}
