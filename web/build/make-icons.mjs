// Renders web/public/favicon.svg into the PNG icons and favicon.ico (PNG-in-ICO) with headless
// Chromium. Run by hand after changing the mark: node web/build/make-icons.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pub = join(import.meta.dirname, '..', 'public');
const svg = readFileSync(join(pub, 'favicon.svg'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'icons-'));

function render(size, { square = false } = {}) {
  // Touch icons are shown on an opaque tile: no rounded corners of our own.
  const mark = square ? svg.replace('rx="8"', 'rx="0"') : svg;
  const html = join(tmp, `icon-${size}.html`);
  writeFileSync(
    html,
    `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${mark}`,
  );
  const png = join(tmp, `icon-${size}.png`);
  execFileSync(process.env.CHROMIUM ?? '/usr/bin/chromium', [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    '--default-background-color=00000000',
    `--window-size=${size},${size}`,
    `--screenshot=${png}`,
    `file://${html}`,
  ]);
  return readFileSync(png);
}

/** An ICO holding one PNG image (supported by every current browser). */
function ico(png, size) {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size >= 256 ? 0 : size, 6);
  header.writeUInt8(size >= 256 ? 0 : size, 7);
  header.writeUInt8(0, 8);
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

writeFileSync(join(pub, 'favicon.ico'), ico(render(32), 32));
writeFileSync(join(pub, 'apple-touch-icon.png'), render(180, { square: true }));
writeFileSync(join(pub, 'icon-192.png'), render(192));
writeFileSync(join(pub, 'icon-512.png'), render(512));
console.log('icons written to', pub);
