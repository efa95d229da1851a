import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentPage } from '../support/environment-page.ts';
import { writeCoaxStep } from '../support/geometry-files.ts';
import { uploadAndMesh } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * Issue 37's mesh-convergence study from the Design study card: a coaxial line section (STEP, a = 0.455 mm,
 * b = 1.49 mm, L = 5 mm) meshed from 0.6 mm finer by 1.5 until its capacitance changes by less than 1 %; the
 * card shows each mesh's value, the converged value with its estimated error (Richardson / GCI), and the
 * closed form 2πε₀L/ln(b/a) lies within that error.
 */
const OUT = resolve(import.meta.dirname, '..', 'out');
const EPS0 = 8.8541878128e-12;
const DIMS = { a: 0.455, b: 1.49, length: 5 };
const stand = serverAndBrowser();

type Mesh = { vertices: number[][]; faces: number[][] };

/** 1-based ids of surface faces whose vertices all lie at radius r (mm). */
function facesAtRadius(mesh: Mesh, r: number): number[] {
  const ids: number[] = [];
  mesh.faces.forEach((f, i) => {
    if (
      f.every((k) => Math.abs(Math.hypot(mesh.vertices[k]?.[0] ?? 0, mesh.vertices[k]?.[1] ?? 0) - r) < 1e-3)
    )
      ids.push(i + 1);
  });
  return ids;
}

describe('mesh-convergence study from the environment', () => {
  it('coax capacitance: meshes finer until it settles; converged value ± error holds the closed form', async () => {
    const page = await environmentPage(stand);
    // nominal sizes everywhere: no curvature refinement holding the size on the cylinders
    const mesh = await uploadAndMesh(page, writeCoaxStep(stand.server.dataDir, DIMS), {
      refineOnCurvature: false,
      maxSize: '0.6',
      timeout: 120_000,
    });
    // electrostatics (the default): terminal 1 at 0 V on the outer conductor, terminal 2 at 1 V on the inner,
    // whole CAD faces (each point meshes anew and finds them by their CAD face)
    await page.click('[data-testid=add-dirichlet-group]');
    await page.click('[data-testid=add-dirichlet-group]');
    expect(await page.inputValue('[data-testid=dirichlet-group-0-voltage]')).toBe('0');
    expect(await page.inputValue('[data-testid=dirichlet-group-1-voltage]')).toBe('1');
    await page.fill('[data-testid=dirichlet-group-0-faces]', facesAtRadius(mesh, DIMS.b).join(', '));
    await page.fill('[data-testid=dirichlet-group-1-faces]', facesAtRadius(mesh, DIMS.a).join(', '));

    await page.click('[data-testid=study-kind-convergence]');
    await page.selectOption('[data-testid=study-convergence-output]', 'capacitance_F');
    await page.fill('[data-testid=study-convergence-tolerance]', '1');
    await page.fill('[data-testid=study-convergence-start]', '0.6');
    await page.fill('[data-testid=study-convergence-ratio]', '1.5');
    await page.fill('[data-testid=study-convergence-max]', '5');
    await expect
      .poll(() => page.textContent('[data-testid=study-count]'), { timeout: 20_000 })
      .toMatch(/^up to 5 meshes · 5 points, estimated at \d+ compute-minutes? in all\.$/);
    await page.click('[data-testid=run-study]');

    // the report shows from the first point on; the study ends when it has converged or ran out of meshes
    await page.waitForSelector('[data-testid=study-convergence]', { timeout: 120_000 });
    await expect
      .poll(() => page.textContent('[data-testid=study-progress-block] p'), {
        timeout: 600_000,
        interval: 1000,
      })
      .toMatch(/ — completed: /);
    const rows = await page.$$eval('[data-testid=study-row]', (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')),
    );
    const closed = (2 * Math.PI * EPS0 * DIMS.length * 1e-3) / Math.log(DIMS.b / DIMS.a);
    for (const r of rows)
      console.log(
        `coax convergence point ${r[0]}: h = ${r[1]} mm, ${r[2]} tetrahedra, ${r[3]}, C = ${r[4]} F (closed form ${closed.toExponential(4)} F)`,
      );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.map((r) => Number(r[1]))).toEqual(
      rows.map((_, k) => Number((0.6 / 1.5 ** k).toPrecision(6))),
    );
    const tets = rows.map((r) => Number((r[2] ?? '').replaceAll(',', '')));
    for (let k = 1; k < tets.length; k++) expect(tets[k]).toBeGreaterThan(tets[k - 1] as number);
    const verdict = (await page.textContent('[data-testid=study-convergence-verdict]')) ?? '';
    const value = Number(await page.textContent('[data-testid=study-convergence-value]'));
    const error = Number(await page.textContent('[data-testid=study-convergence-error]'));
    const extrapolated = Number(await page.textContent('[data-testid=study-convergence-extrapolated]'));
    console.log(
      `coax convergence: ${verdict}; Richardson ${extrapolated.toExponential(4)} F; actual error ${Math.abs(value - closed).toExponential(2)} F against the reported ${error.toExponential(2)} F`,
    );
    expect(verdict).toMatch(/^Converged: capacitance_F = /);
    // the value shown is the finest point's, and the closed form is within its reported error
    expect(Math.abs(value / Number(rows.at(-1)?.[4]) - 1)).toBeLessThan(1e-4);
    expect(Math.abs(value - closed)).toBeLessThanOrEqual(error);
    await page.locator('[data-testid=study-convergence]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'study-convergence.png') });
    await page.context().close();
  }, 700_000);
});
