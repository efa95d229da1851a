import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';

export interface CapacitorFile {
  path: string;
  mesh: ReturnType<typeof boxMesh>;
  gap: number;
  /** Face ids (1-based) of the plates at z = 0 and z = gap. */
  bottom: number[];
  top: number[];
}

/** A 5 mm × 5 mm parallel-plate capacitor with a `gap` (m) between its plates, as a volume mesh in JSON. */
export function capacitorMeshFile(dir: string, name = 'capacitor.json', gap = 0.001): CapacitorFile {
  const mesh = boxMesh([0.005, 0.005, gap], [2, 2, 2]);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ ...mesh, units: 'm' }));
  return { path, mesh, gap, bottom: facesOnPlane(mesh, 2, 0), top: facesOnPlane(mesh, 2, gap) };
}

/** Uploads the capacitor and makes its plates the two Dirichlet terminals: 0 V and `volts`. */
export async function loadCapacitorTerminals(page: Page, cap: CapacitorFile, volts: string): Promise<void> {
  await page.setInputFiles('[data-testid=file-input]', cap.path);
  await page.waitForSelector('[data-testid=config-form]');
  await page.click('[data-testid=add-dirichlet-group]');
  await page.click('[data-testid=add-dirichlet-group]');
  await page.fill('[data-testid=dirichlet-group-0-faces]', cap.bottom.join(', '));
  await page.fill('[data-testid=dirichlet-group-1-faces]', cap.top.join(', '));
  await page.fill('[data-testid=dirichlet-group-1-voltage]', volts);
}
