import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentPage, pickFace, recordViewerMessages, viewerFrame } from '../support/environment-page.ts';
import { writeBracketStep } from '../support/geometry-files.ts';
import { facesWhere, uploadAndMesh } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';
import { settled } from '../support/viewer-harness.ts';

/**
 * Issue 16's user path: choose Structural, upload a STEP bracket, pick its bolt holes as fixed supports and
 * a face for a 500 N load, run, and see the deformed shape coloured by von Mises (legend in MPa) and the
 * reaction forces.
 */

/** Screenshots for a person to look at (not compared). */
const OUT = resolve(import.meta.dirname, '..', 'out');

const stand = serverAndBrowser();

type Shown = {
  field: string | null;
  legend: { title: string; units: string; min: number; max: number } | null;
  deformation: { field: string | null; scale: number };
  marks: Record<string, number>;
};

describe('structural analysis from the environment', () => {
  it('bracket: bolt holes fixed, 500 N on the upright, deformed shape by von Mises in MPa, reactions', async () => {
    const page = await environmentPage(stand);
    const frame = await viewerFrame(page);
    await recordViewerMessages(frame);
    const mesh = await uploadAndMesh(page, writeBracketStep(stand.server.dataDir));

    await page.click('[data-testid=physics-structural]');
    await page.click('[data-testid=group-order] .section-head');
    expect(await page.inputValue('[data-testid=mesh-order]')).toBe('2');

    // Bolt holes: one click on each hole picks its whole cylindrical CAD face.
    const hole = (x: number) =>
      facesWhere(mesh, (v) => Math.abs(Math.hypot((v[0] ?? 0) - x, (v[1] ?? 0) - 15) - 4) < 0.05);
    const holes = [...hole(15), ...hole(45)].sort((a, b) => a - b);
    expect(hole(15).length).toBeGreaterThan(0);
    await page.click('[data-testid=add-support]');
    await page.click('[data-testid=support-0] button.pick');
    await pickFace(frame, hole(15)[0]!);
    await pickFace(frame, hole(45)[0]!);
    await expect
      .poll(async () =>
        (await page.inputValue('[data-testid=support-0-faces]'))
          .split(', ')
          .map(Number)
          .sort((a, b) => a - b),
      )
      .toEqual(holes);
    await page.click('[data-testid=support-0] button.pick');

    // 500 N down on the top of the upright (z = 36 mm).
    const top = facesWhere(mesh, (v) => Math.abs((v[2] ?? 0) - 36) < 1e-6);
    await page.click('[data-testid=add-load]');
    await page.click('[data-testid=load-0] button.pick');
    await pickFace(frame, top[0]!);
    await expect.poll(() => page.inputValue('[data-testid=load-0-faces]')).not.toBe('');
    await page.click('[data-testid=load-0] button.pick');
    expect(await page.inputValue('[data-testid=load-0-fz]')).toBe('-500');

    const shown = () =>
      frame.evaluate(() =>
        (window as unknown as { fieldlineViewer: { shown: () => Shown } }).fieldlineViewer.shown(),
      );
    // The supports and the load are marked on the model in their colours (qa31: nothing showed where they were).
    await expect
      .poll(async () => (await shown()).marks)
      .toEqual({ constraint: holes.length, load: top.length });

    // The estimate beside Run: unknowns and memory before anything is queued.
    expect(await page.textContent('[data-testid=run-estimate]')).toMatch(
      /^≈ [\d.]+ (k |M )?unknowns, ≈\u00a0[\d.]+\u00a0(kB|MB|GB) for this model · direct solver$/,
    );
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=reactions]', { timeout: 240_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');

    // The supports hold the 500 N: their z reaction is +500 N.
    const reaction = await page.textContent('[data-testid=reactions] tbody tr:first-child td:nth-child(4)');
    console.log(`bracket: support reaction Fz shown as ${reaction}`);
    expect(reaction).toMatch(/^500(\.0+)? N$/);
    // the table reads as columns: padded cells across the panel (qa31: "0 N 0 N 500 N" ran together)
    const layout = await page.$eval('[data-testid=reactions] table', (t) => ({
      width: t.getBoundingClientRect().width,
      panel: (t.closest('[data-testid=reactions]') as HTMLElement).getBoundingClientRect().width,
      padding: Number.parseFloat(getComputedStyle(t.querySelector('td') as HTMLElement).paddingLeft),
    }));
    expect(layout.width).toBeGreaterThan(0.95 * layout.panel);
    expect(layout.padding).toBeGreaterThanOrEqual(4);

    // The viewer shows von Mises on the deformed shape, its legend in MPa.
    await settled(frame);
    // with the results shown the marks go, so they do not hide the stress at the bolt holes
    expect((await shown()).marks).toEqual({});
    await expect.poll(async () => (await shown()).legend?.title).toBe('Von Mises stress');
    const s = await shown();
    expect(s.legend?.units).toBe('Pa');
    expect(s.legend?.max).toBeGreaterThan(1e6); // MPa range: the legend prints MPa
    expect(s.legend?.max).toBeLessThan(1e9);
    expect(s.deformation.field).toBe('displacement');
    expect(s.deformation.scale).toBeGreaterThan(1);
    const options = await page.$$eval('[data-testid=field-mode] option', (els) =>
      els.map((e) => e.textContent),
    );
    expect(options[0]).toBe('Von Mises stress (Pa)');
    console.log(
      `bracket: max von Mises ${(s.legend!.max / 1e6).toFixed(1)} MPa, exaggeration ×${s.deformation.scale.toFixed(0)}`,
    );
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'structural-bracket.png') });

    // F5 after the run brings the same job back: its id is in the address from the moment it was submitted
    // (qa29: the page came back empty), with model, form and results, and no "Opening job …" left behind.
    const jobId = new URL(page.url().replace('#/', '')).searchParams.get('job');
    expect(jobId).toMatch(/^[0-9a-f-]{8,}$/);
    await page.reload();
    await page.waitForSelector('[data-testid=reactions]', { timeout: 60_000 });
    expect(page.url()).toContain(`job=${jobId}`);
    expect(await page.textContent('[data-testid=reactions] tbody tr:first-child td:nth-child(4)')).toBe(
      reaction,
    );
    expect(await page.getAttribute('[data-testid=physics-structural]', 'aria-pressed')).toBe('true');
    expect(await page.$('[data-testid=support-0]')).not.toBeNull();
    expect(await page.$('[data-testid=analysis-notice]')).toBeNull();
    await page.screenshot({ path: join(OUT, 'structural-bracket-reloaded.png') });
    await page.context().close();
  });
});
