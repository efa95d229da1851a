import { open } from 'node:fs/promises';
import { HttpError } from '../http/errors.ts';
import type { UploadFormat } from './upload-service.ts';

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 1024;

/**
 * The engine's first content checks (engine/fieldline_engine/geometry/formats.py `check_content`, same
 * sentences), made here on the file's first and last bytes, plus one it leaves to gmsh: a STEP file must
 * end with its END-ISO-10303-21 terminator. An upload that is plainly not what its name says — a binary
 * STL whose triangle count lies, a STEP file cut short, a renamed image — then costs no engine process
 * (≈ 0.3 CPU s each, more for gmsh). The engine still checks everything itself.
 */
export async function refuseMalformedContent(
  path: string,
  bytes: number,
  format: UploadFormat,
  name: string,
): Promise<void> {
  const { head, tail } = await ends(path, bytes);
  const refuse = (message: string) => new HttpError(422, 'invalid_input', message);
  if (format === 'step') {
    const start = head.toString('latin1').replace(/^[\uFEFF\u00EF\u00BB\u00BF \t\r\n]+/, '');
    if (!start.toUpperCase().startsWith('ISO-10303-21'))
      throw refuse(`${name} is not a STEP file: it does not start with the ISO-10303-21 header.`);
    if (!tail.toString('latin1').toUpperCase().includes('END-ISO-10303-21'))
      throw refuse(
        `${name} is incomplete: a STEP file ends with END-ISO-10303-21; and this one stops before it. The upload or the export was cut short; export it again.`,
      );
  } else if (format === 'stl') {
    if (bytes >= 84 && bytes === 84 + 50 * head.readUInt32LE(80)) return; // binary STL
    const text = head.toString('latin1').trimStart().toLowerCase();
    if (!(text.startsWith('solid') && (text.includes('facet') || text.includes('endsolid'))))
      throw refuse(
        `${name} is not a valid STL file: it is neither ASCII STL (solid … facet …) nor binary STL (its size does not match the triangle count in its header).`,
      );
  } else if (format === 'obj') {
    if (head.includes(0)) throw refuse(`${name} is not an OBJ file: OBJ files are text.`);
  } else if (format === 'zip') {
    const sig = head.subarray(0, 4).toString('latin1');
    if (sig !== 'PK\x03\x04' && sig !== 'PK\x05\x06') throw refuse(`${name} is not a ZIP archive.`);
  }
}

async function ends(path: string, bytes: number): Promise<{ head: Buffer; tail: Buffer }> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD_BYTES, bytes));
    await fh.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(TAIL_BYTES, bytes));
    await fh.read(tail, 0, tail.length, bytes - tail.length);
    return { head, tail };
  } finally {
    await fh.close();
  }
}
