import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { BILLET } from './geometry-files.ts';
import { facesWhere } from './meshed-model.ts';

/**
 * The induction-heating billet both induction e2e tests run (geometry-files.ts `writeInductionBilletStep`):
 * its drive, the closed form of its eddy loss, its bodies in order from the axis, and the magnetic set-up
 * they share (flux-normal outer faces, steel above its Curie point, nothing else conducting).
 */

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export const TURNS = 10;
export const CURRENT = 5; // A, peak
export const FREQUENCY = 5000; // Hz
export const SIGMA = 5e6; // S/m
export const H_CONV = 20; // W/(m²·K)
export const AMBIENT = 293.15; // K

export type BilletMesh = {
  vertices: number[][];
  faces: number[][];
  tetrahedra: number[][];
  tetrahedron_regions: number[];
};

/**
 * The billet's time-averaged eddy power over the slice (W): P′ h with P′ = (π/σ) ∫₀ᵃ |H₀ k J₁(kr)/J₀(ka)|² r dr,
 * H₀ = N I / h, k = (1 − j)/δ — the engine's own closed form (engine/fieldline_engine/testing/induction_billet.py,
 * the one its validation test checks to 0.11 %), evaluated by scipy.
 */
export function closedFormLoss(): number {
  const script = `
import sys
from fieldline_engine.testing.induction_billet import power_per_length
n, i, h, a, sigma, f = map(float, sys.argv[1:])
print(power_per_length(n * i / h, a, sigma, f) * h)
`;
  const args = [TURNS, CURRENT, BILLET.height * 1e-3, BILLET.radius * 1e-3, SIGMA, FREQUENCY].map(String);
  const out = execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, ...args], {
    cwd: join(REPO_ROOT, 'engine'),
  });
  return Number(out.toString().trim());
}

/** Each body's index by its mean radius: billet, gap, coil, air from the axis out. */
export function bodiesByRadius(mesh: BilletMesh): [number, number, number, number] {
  const sum = new Map<number, { r: number; n: number }>();
  mesh.tetrahedra.forEach((tet, i) => {
    const region = mesh.tetrahedron_regions[i] ?? 0;
    const [x, y] = [0, 1].map((c) => tet.reduce((s, k) => s + (mesh.vertices[k]?.[c] ?? 0), 0) / 4);
    const e = sum.get(region) ?? { r: 0, n: 0 };
    sum.set(region, { r: e.r + Math.hypot(x ?? 0, y ?? 0), n: e.n + 1 });
  });
  return [...sum.entries()].sort((a, b) => a[1].r / a[1].n - b[1].r / b[1].n).map(([region]) => region) as [
    number,
    number,
    number,
    number,
  ];
}

/** The slice's outer faces (top, bottom, the air's outer cylinder) flux-normal, with no air added. */
export async function setFluxNormalOuterFaces(page: Page, mesh: BilletMesh): Promise<void> {
  const outer = facesWhere(mesh, (v) => {
    const [x = 0, y = 0, z = 0] = v;
    return (
      Math.abs(z) < 1e-6 ||
      Math.abs(z - BILLET.height) < 1e-6 ||
      Math.abs(Math.hypot(x, y) - BILLET.airOuter) < 0.02
    );
  });
  await page.click('[data-testid=group-magnetic-boundaries] .section-head');
  await page.fill('[data-testid=air-padding]', '0');
  await page.getByRole('button', { name: '+ Add flux boundary' }).click();
  await page
    .locator('[data-testid=group-magnetic-boundaries] .row-card input')
    .first()
    .fill(outer.join(', '));
}

/**
 * Materials: the billet is steel above its Curie point (σ 5 MS/m, μr 1); gap, winding and air conduct no eddy
 * current (a water-cooled coil's own copper loss leaves in its water, not through the billet).
 */
export async function setBilletMaterials(
  page: Page,
  [billet, gap, coil, air]: [number, number, number, number],
): Promise<void> {
  await page.click('[data-testid=group-body-materials] .section-head');
  for (const b of [gap, coil, air]) await page.selectOption(`#body-material-${b}`, 'vacuum');
  await page.fill(`#body-${billet}-conductivity`, String(SIGMA));
  await page.fill(`#body-${billet}-relativePermeability`, '1');
}

/** Thermal at second order with induction heating: the frequency, and the coil body as a ring about +z. */
export async function setUpInductionCoil(page: Page, coil: number): Promise<void> {
  await page.click('[data-testid=physics-thermal]');
  await page.click('[data-testid=group-order] .section-head');
  await page.selectOption('[data-testid=mesh-order]', '2');
  await page.click('[data-testid=group-heat-sources] .section-head');
  await page.click('[data-testid=induction-heating]');
  await page.fill('[data-testid=induction-frequency]', String(FREQUENCY));
  await page.click('[data-testid=add-coil]');
  await page.selectOption('[data-testid=coil-0-body]', String(coil));
  await page.fill('[data-testid=coil-0-turns]', String(TURNS));
  await page.fill('[data-testid=coil-0-current]', String(CURRENT));
  await page.getByRole('textbox', { name: 'Axis z', exact: true }).fill('1');
  await page.getByRole('textbox', { name: 'Axis x', exact: true }).fill('0');
  await page.getByRole('textbox', { name: 'Axis y', exact: true }).fill('0');
}
