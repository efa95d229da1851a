import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // Browser state settles on server round trips (Argon2 hashing included) on a busy 2-core machine.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
