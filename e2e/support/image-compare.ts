import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';

const REFERENCES = resolve(import.meta.dirname, '..', 'references', 'viewer');
const OUT = resolve(import.meta.dirname, '..', 'out', 'viewer');

export interface ImageDiff {
  /** share of pixels whose largest channel difference exceeds the threshold */
  differing: number;
  /** mean absolute channel difference, 0–255 */
  meanDiff: number;
  wroteReference: boolean;
}

export function diffImages(a: PNG, b: PNG, threshold = 48): { differing: number; meanDiff: number } {
  if (a.width !== b.width || a.height !== b.height) return { differing: 1, meanDiff: 255 };
  let bad = 0;
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let worst = 0;
    for (let k = 0; k < 3; k++) {
      const d = Math.abs(a.data[i + k]! - b.data[i + k]!);
      sum += d;
      if (d > worst) worst = d;
    }
    if (worst > threshold) bad++;
  }
  const pixels = a.width * a.height;
  return { differing: bad / pixels, meanDiff: sum / (3 * pixels) };
}

/**
 * Compares a screenshot with the stored reference e2e/references/viewer/<name>.png (software rendering
 * differs slightly between CPUs, hence a tolerance). With UPDATE_REFERENCES=1 the reference is
 * (re)written instead. The screenshot is always kept in e2e/out/viewer/ for a person to look at.
 */
export function compareToReference(name: string, screenshot: Buffer): ImageDiff {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${name}.png`), screenshot);
  const refPath = join(REFERENCES, `${name}.png`);
  if (process.env.UPDATE_REFERENCES === '1') {
    mkdirSync(REFERENCES, { recursive: true });
    writeFileSync(refPath, screenshot);
    return { differing: 0, meanDiff: 0, wroteReference: true };
  }
  if (!existsSync(refPath)) {
    throw new Error(`No reference image ${refPath}; run with UPDATE_REFERENCES=1 and look at it first.`);
  }
  const diff = diffImages(PNG.sync.read(readFileSync(refPath)), PNG.sync.read(screenshot));
  return { ...diff, wroteReference: false };
}

export function decodePng(buffer: Buffer): PNG {
  return PNG.sync.read(buffer);
}
