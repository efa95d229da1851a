import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentPage, pickFace, viewerFrame } from '../support/environment-page.ts';
import { writeBracketStep } from '../support/geometry-files.ts';
import { facesWhere, uploadAndMesh } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';
import { settled } from '../support/viewer-harness.ts';

/**
 * Issue 18's user path: a STEP bracket fixed at its mounting holes, 6 modes asked, mode 1 animates with its
 * frequency shown; then a harmonic sweep over the same supports peaks at the first mode's frequency.
 */

const OUT = resolve(import.meta.dirname, '..', 'out');

const stand = serverAndBrowser();

type Shown = { deformation: { field: string | null }; position: [number, number, number] | null };

describe('vibration from the environment', () => {
  it('bracket: 6 modes with mode 1 animated and its frequency shown, then a harmonic peak at mode 1', async () => {
    const page = await environmentPage(stand);
    const frame = await viewerFrame(page);
    const mesh = await uploadAndMesh(page, writeBracketStep(stand.server.dataDir));

    await page.click('[data-testid=physics-vibration]');
    expect(await page.inputValue('[data-testid=modal-num-modes]')).toBe('6');
    const hole = (x: number) =>
      facesWhere(mesh, (v) => Math.abs(Math.hypot((v[0] ?? 0) - x, (v[1] ?? 0) - 15) - 4) < 0.05);
    await page.click('[data-testid=add-support]');
    await page.click('[data-testid=support-0] button.pick');
    await pickFace(frame, hole(15)[0]!);
    await pickFace(frame, hole(45)[0]!);
    await expect
      .poll(async () => (await page.inputValue('[data-testid=support-0-faces]')).split(', ').length)
      .toBe(hole(15).length + hole(45).length);
    await page.click('[data-testid=support-0] button.pick');

    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=vibration-modes]', { timeout: 240_000 });
    const rows = await page.$$('[data-testid=vibration-modes] tbody tr');
    expect(rows.length).toBe(6);
    const f1Text = (await page.textContent('[data-testid=mode-1] td')) ?? '';
    const f1 = Number.parseFloat(f1Text) * (f1Text.includes('kHz') ? 1e3 : 1);
    console.log(`bracket: mode 1 at ${f1Text}`);
    expect(f1).toBeGreaterThan(10);
    // A mode shape is normalised to 1: its field carries no length unit.
    const fieldOptions = await page.$$eval('[data-testid=field-mode] option', (els) =>
      els.map((e) => e.textContent),
    );
    expect(fieldOptions).toContain('Displacement (mode shape)');

    // Mode 1 on the deformed shape, its frequency in the viewer's badge; play swings it.
    await settled(frame);
    const shown = (i: number) =>
      frame.evaluate(
        (k) =>
          (window as unknown as { fieldlineViewer: { shown: (i: number) => Shown } }).fieldlineViewer.shown(
            k,
          ),
        i,
      );
    await expect.poll(async () => (await shown(0)).deformation.field).toBe('displacement');
    await expect.poll(() => frame.textContent('.fl-badge')).toMatch(/mode 1 — [\d.]+ Hz/);
    const top = mesh.vertices.findIndex((v) => Math.abs((v[2] ?? 0) - 36) < 1e-6);
    const positions: number[] = [];
    // Issue 36: the transport buttons are SVG icons (a system without a symbol font drew ⏮ ▶ ⏭ as empty boxes),
    // the exaggeration says the drawn amplitude in model units (it read "× 2.1e-3" for a large swing), and the
    // legend's title wraps at a readable size (it shrank "Displacement (mode shape)" to 9 px).
    const transport = await page.$$eval('[data-testid=animation-controls] .transport button', (els) =>
      els.map((b) => ({
        name: b.getAttribute('aria-label'),
        text: b.textContent,
        icon: (() => {
          const r = b.querySelector('svg')?.getBoundingClientRect();
          return r ? [Math.round(r.width), Math.round(r.height)] : null;
        })(),
      })),
    );
    expect(transport).toEqual([
      { name: 'Previous frame', text: '', icon: [16, 16] },
      { name: 'Play', text: '', icon: [16, 16] },
      { name: 'Next frame', text: '', icon: [16, 16] },
    ]);
    const drawn = (await page.textContent('[data-testid=field-controls] .slider output')) ?? '';
    const note = (await page.textContent('[data-testid=deformation-note]')) ?? '';
    console.log(`bracket: exaggeration shows "${drawn}"; ${note}`);
    // 5 % of the bracket's largest dimension (60 mm): 3 mm
    expect(drawn).toBe('largest 3 mm');
    expect(note).toMatch(
      /^The mode shape is drawn with its largest displacement at 3 mm: a mode's amplitude is arbitrary/,
    );
    const legend = (await frame.evaluate(() =>
      (window as unknown as { fieldlineViewer: { shown: (i: number) => unknown } }).fieldlineViewer.shown(0),
    )) as { legend: { titleLines?: string[]; titleSize?: number } | null };
    console.log(
      `bracket: legend title ${JSON.stringify(legend.legend?.titleLines)} at ${legend.legend?.titleSize} px`,
    );
    expect(legend.legend?.titleLines).toEqual(['|Displacement', '(mode shape)|']);
    expect(legend.legend?.titleSize).toBeGreaterThanOrEqual(12);
    mkdirSync(OUT, { recursive: true });
    await page
      .locator('[data-testid=animation-controls]')
      .screenshot({ path: join(OUT, 'vibration-transport.png') });
    await frame.locator('canvas.fl-legend').screenshot({ path: join(OUT, 'vibration-legend.png') });
    await page.click('[data-testid=animation-controls] button.play');
    for (let k = 0; k < 8; k++) {
      await new Promise((r) => setTimeout(r, 90));
      positions.push((await shown(top)).position?.[0] ?? 0);
    }
    const spread = Math.max(...positions) - Math.min(...positions);
    console.log(`bracket: mode 1 swings the upright's top by ${spread.toFixed(2)} mm in x while playing`);
    expect(spread).toBeGreaterThan(0.5);
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'vibration-bracket-mode1.png') });

    // Harmonic: 1 N on the upright's top, 0 … 2·f1; the response peaks at mode 1.
    await page.selectOption('[data-testid=vibration-kind]', 'harmonic');
    await page.click('[data-testid=add-load]');
    await page.fill(
      '[data-testid=load-0-faces]',
      facesWhere(mesh, (v) => Math.abs((v[2] ?? 0) - 36) < 1e-6).join(', '),
    );
    await page.fill('[data-testid=load-0-fx]', '-1');
    await page.fill('[data-testid=load-0-fz]', '0');
    await page.fill('[data-testid=harmonic-freq-max]', String(Math.round(2 * f1)));
    await page.fill('[data-testid=harmonic-num-points]', '201');
    await page.click('[data-testid=group-vibration] button.add');
    await page.locator('[aria-label="at x"]').fill('57');
    await page.locator('[aria-label="at y"]').fill('15');
    await page.locator('[aria-label="at z"]').fill('35');
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=harmonic-response]', { timeout: 240_000 });
    const peakText = (await page.textContent('[data-testid=quantity-peak_frequency_Hz] td')) ?? '';
    const peak = Number.parseFloat(peakText) * (peakText.includes('kHz') ? 1e3 : 1);
    console.log(`bracket: harmonic peak at ${peakText} (mode 1 at ${f1Text})`);
    expect(Math.abs(peak - f1) / f1).toBeLessThan(0.02);

    // The probe's response as CSV: its largest |u| sits at the same frequency the summary names.
    const downloading = page.waitForEvent('download');
    await page.click('[data-testid=download-harmonic-response]');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('fea_harmonic_response.csv');
    const saved = join(stand.server.dataDir, 'fea_harmonic_response.csv');
    await download.saveAs(saved);
    const [header, ...lines] = readFileSync(saved, 'utf8').trimEnd().split('\n');
    const columns = (header ?? '').split(',');
    expect(columns.slice(0, 3)).toEqual(['frequency_hz', 'P1_ux_amp_m', 'P1_ux_phase_deg']);
    expect(lines.length).toBe(201);
    const amp = (row: number[], axis: string) => row[columns.indexOf(`P1_u${axis}_amp_m`)] ?? 0;
    const table = lines.map((l) => l.split(',').map(Number));
    const magnitude = (row: number[]) => Math.hypot(amp(row, 'x'), amp(row, 'y'), amp(row, 'z'));
    const peakRow = table.reduce((best, row) => (magnitude(row) > magnitude(best) ? row : best));
    console.log(`bracket: CSV peak |u| ${magnitude(peakRow).toExponential(3)} m at ${peakRow[0]} Hz`);
    expect(Math.abs((peakRow[0] ?? 0) - peak) / peak).toBeLessThan(0.01);
    await page.screenshot({ path: join(OUT, 'vibration-bracket-harmonic.png') });
    await page.context().close();
  });
});
