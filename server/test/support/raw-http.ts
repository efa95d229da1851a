import { request as httpRequest } from 'node:http';

/** A reply as it came off the socket. */
export interface Raw {
  status: number;
  /** Raw header lines in order, without Date (it changes between two replies). */
  headers: string[];
  body: Buffer;
}

/** A GET over a fresh connection, keeping the raw header lines (to compare two replies byte for byte). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i]?.toLowerCase() !== 'date')
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
