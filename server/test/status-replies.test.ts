import { describe, expect, it } from 'vitest';
import { compressReply, identityStream } from '../src/fea/status-replies.ts';

// Issue 20: a completed job's reply sent uncompressed is inflated as the reader takes it, so a stalled
// reader holds a stream buffer of it, not a whole copy (results of a real model are tens of MB).
describe('identityStream', () => {
  it('inflates no further than the reader has read, then gives the exact JSON', async () => {
    const json = JSON.stringify({
      results: { potential: Array.from({ length: 600_000 }, (_, i) => i * 0.5) },
    });
    const reply = await compressReply(json);
    expect(json.length).toBeGreaterThan(4_000_000);
    const stream = identityStream(reply);
    await new Promise((r) => setTimeout(r, 100)); // nobody reads
    expect(stream.readableLength, 'bytes inflated ahead of a stalled reader').toBeLessThanOrEqual(64 * 1024);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    expect(body.length).toBe(reply.length);
    expect(body.toString('utf8')).toBe(json);
  });
});
