import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentPage, pickFace, viewerFrame } from '../support/environment-page.ts';
import { writeBusBarStep } from '../support/geometry-files.ts';
import { facesWhere, uploadAndMesh } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';
import { settled } from '../support/viewer-harness.ts';

/**
 * Issue 17's user path: a STEP bus bar, a voltage across it, convection on its surfaces, Joule heating on,
 * one job: the temperature map with its legend in K and °C, and the current density.
 */

const OUT = resolve(import.meta.dirname, '..', 'out');

const stand = serverAndBrowser();

type Shown = {
  field: string | null;
  legend: { title: string; units: string; min: number; max: number } | null;
};

describe('thermal analysis with Joule heating from the environment', () => {
  it('bus bar: 10 mV across, convection around, one run gives the temperature in K and °C and the current', async () => {
    const page = await environmentPage(stand);
    const frame = await viewerFrame(page);
    const mesh = await uploadAndMesh(page, writeBusBarStep(stand.server.dataDir));

    await page.click('[data-testid=physics-thermal]');
    // Copper: the library gives σ, k, ρ and c.
    await page.click('[data-testid=group-body-materials] .section-head');
    await page.selectOption('#body-material-0', 'copper');

    // Joule heating: 0 V and 10 mV on the two ends, picked in the viewer.
    await page.click('[data-testid=group-heat-sources] .section-head');
    await page.getByLabel('Joule heating from the current (DC conduction solve)').check();
    const end = (x: number) => facesWhere(mesh, (v) => Math.abs((v[0] ?? 0) - x) < 1e-6);
    for (const [i, x, volts] of [
      [0, 0, '0'],
      [1, 100, '0.01'],
    ] as const) {
      await page.click('[data-testid=add-dirichlet-group]');
      await page.click(`[data-testid=dirichlet-group-${i}] button.pick`);
      await pickFace(frame, end(x)[0]!);
      await page.click(`[data-testid=dirichlet-group-${i}] button.pick`);
      await page.fill(`[data-testid=dirichlet-group-${i}-voltage]`, volts);
    }
    expect((await page.inputValue('[data-testid=dirichlet-group-1-faces]')).split(', ').length).toBe(
      end(100).length,
    );

    // Convection (h = 10 W/m²K, 20 °C) on the four long faces.
    const sides = facesWhere(
      mesh,
      (v) => (v[0] ?? 0) > -1 && !(Math.abs(v[0] ?? 0) < 1e-6 || Math.abs((v[0] ?? 0) - 100) < 1e-6),
    );
    const long = mesh.faces
      .map((_, i) => i + 1)
      .filter((id) => !end(0).includes(id) && !end(100).includes(id));
    expect(long.length).toBeGreaterThan(sides.length - 1);
    await page.click('[data-testid=add-thermal-condition]');
    await page.fill('[data-testid=thermal-condition-0-faces]', long.join(', '));
    await page.fill('[data-testid=thermal-condition-0-value]', '10');
    await page.fill('[data-testid=thermal-condition-0-ambient]', '293.15');

    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=heat-flows]', { timeout: 240_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');

    // A closed-form check of the rise: P = V²σA/L leaves through h over the four faces (the bar is
    // nearly isothermal: Bi ≈ 1e-4).
    const power = (0.01 ** 2 * 5.8e7 * (10e-3 * 3e-3)) / 0.1;
    const area = 2 * (0.1 * 0.01 + 0.1 * 0.003);
    const rise = power / (10 * area);
    await settled(frame);
    const shown = () =>
      frame.evaluate(() =>
        (window as unknown as { fieldlineViewer: { shown: () => Shown } }).fieldlineViewer.shown(),
      );
    await expect.poll(async () => (await shown()).legend?.title).toBe('Temperature');
    const legend = (await shown()).legend!;
    expect(legend.units).toBe('K');
    const error = Math.abs(legend.max - 293.15 - rise) / rise;
    console.log(
      `bus bar: P = ${power.toFixed(3)} W, hottest ${(legend.max - 273.15).toFixed(2)} °C, lumped rise ${rise.toFixed(2)} K (error ${(error * 100).toFixed(2)} %)`,
    );
    expect(error).toBeLessThan(0.01);
    const options = await page.$$eval('[data-testid=field-mode] option', (els) =>
      els.map((e) => e.textContent),
    );
    expect(options).toEqual(expect.arrayContaining(['Temperature (K)', 'Current density (A/m²)']));
    expect(await page.textContent('[data-testid=quantities]')).toMatch(
      /Max temperature\s*[\d.]+ K \([\d.]+ °C\)/,
    );
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'thermal-busbar.png') });
    await page.context().close();
  });
});
