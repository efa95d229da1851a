import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface AppSecrets {
  /** HMAC key for session-id hashing and signed tokens. */
  sessionKey: string;
  /** AES-256-GCM key for storage encryption at rest (hex, 32 bytes). */
  storageKey: string;
}

/**
 * Loads the secrets file under the data dir, generating it on first run with mode 0600.
 * Never a per-process random default: sessions and encrypted files must survive restarts.
 */
export function loadOrCreateSecrets(dataDir: string): AppSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<AppSecrets>;
    if (typeof parsed.sessionKey === 'string' && typeof parsed.storageKey === 'string') {
      return { sessionKey: parsed.sessionKey, storageKey: parsed.storageKey };
    }
    throw new Error(`${file} is missing keys; restore it from backup or delete it to generate new ones`);
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const secrets: AppSecrets = {
    sessionKey: randomBytes(32).toString('hex'),
    storageKey: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secrets;
}
