import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boxMesh } from '../../server/test/support/box-mesh.ts';
import { environmentPage, received, recordViewerMessages, viewerFrame } from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';
import { settled } from '../support/viewer-harness.ts';

/**
 * Named fields end to end (docs/multiphysics.md): a results file of another physics — a temperature (K)
 * and a displacement marked as a deformation — loads into the environment (spec 001 §4 upload of a results
 * JSON), is offered in the field selector, coloured with its own legend and warps the mesh. Nothing in
 * the viewer or the environment names these fields.
 */

const stand = serverAndBrowser();

const L = 0.1; // a 100 mm × 20 mm × 20 mm bar, written in millimetres
type Shown = {
  field: string | null;
  legend: { title: string; units: string; min: number; max: number } | null;
  deformation: { field: string | null; scale: number };
  position: [number, number, number] | null;
  extent: { x: [number, number]; y: [number, number] } | null;
};

function syntheticResults(dir: string) {
  const mesh = boxMesh([L, 0.02, 0.02], [5, 1, 1]);
  // T rises linearly along the bar from 300 K to 400 K; the bar bends in z: u_z = 1e-4·(x/L)² m.
  const temperature = mesh.vertices.map(([x]) => 300 + 100 * (x! / L));
  const displacement = mesh.vertices.map(([x]) => [0, 0, 1e-4 * (x! / L) ** 2]);
  const results = {
    solver_info: { elements: mesh.tetrahedra.length, matrix_size: 0, non_zeros: 0, analysis: 'synthetic' },
    vertices: mesh.vertices.map(([x, y, z]) => [x! * 1000, y! * 1000, z! * 1000]),
    faces: mesh.faces,
    tetrahedra: mesh.tetrahedra,
    length_unit: 'mm',
    fields: {
      temperature: {
        label: 'Temperature',
        unit: 'K',
        kind: 'scalar',
        location: 'vertex',
        complex: false,
        data: temperature,
      },
      displacement: {
        label: 'Displacement',
        unit: 'm',
        kind: 'vector',
        location: 'vertex',
        complex: false,
        role: 'deformation',
        data: displacement,
      },
    },
    quantities: {},
  };
  const path = join(dir, 'synthetic-results.json');
  writeFileSync(path, JSON.stringify(results));
  return { path, mesh, displacement };
}

const shown = (frame: Frame, i: number) =>
  frame.evaluate(
    (k) =>
      (window as unknown as { fieldlineViewer: { shown: (i: number) => Shown } }).fieldlineViewer.shown(k),
    i,
  );

describe('named fields from a results file', () => {
  it('lists, colours with the legend and warps by the displacement, without naming either field', async () => {
    const page = await environmentPage(stand, { viewport: { width: 1366, height: 800 }, signUp: false });
    const frame = await viewerFrame(page);
    await recordViewerMessages(frame);
    const { path, mesh, displacement } = syntheticResults(stand.server.dataDir);
    await page.setInputFiles('[data-testid=file-input]', path);
    await expect.poll(() => page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');

    const load = (await received(frame)).filter((m) => m.type === 'load-mesh' && m.fields).at(-1);
    expect(load?.fields).toEqual({
      temperature: { label: 'Temperature', unit: 'K', kind: 'scalar' },
      displacement: { label: 'Displacement', unit: 'm', kind: 'vector' },
    });
    const options = await page.$$eval('[data-testid=field-mode] option', (els) =>
      els.map((e) => e.textContent),
    );
    expect(options).toEqual(['Temperature (K)', 'Displacement (m)']);

    // The first field is shown by default, with its label, its unit (no SI prefix on kelvin) and range.
    await settled(frame);
    await expect.poll(async () => (await shown(frame, 0)).legend?.title).toBe('Temperature');
    const t = await shown(frame, 0);
    expect(t.legend).toMatchObject({ units: 'K', min: 300, max: 400 });

    // The deformation is on by default at the automatic exaggeration: largest displacement = 5 % of the
    // model's largest dimension (100 mm).
    const autoScale = (0.05 * 100 * 1e-3) / 1e-4;
    await expect.poll(async () => (await shown(frame, 0)).deformation.field).toBe('displacement');
    expect(Math.abs((await shown(frame, 0)).deformation.scale / autoScale - 1)).toBeLessThan(1e-5); // float32 data
    const far = mesh.vertices.findIndex(([x, y, z]) => x === L && y === 0 && z === 0);
    const moved = (await shown(frame, far)).position!;
    // vertex position (mm) + scale × displacement (m → mm)
    const expectedZ = autoScale * displacement[far]![2]! * 1000;
    console.log(
      `deformed tip: z = ${moved[2].toFixed(4)} mm, expected ${expectedZ.toFixed(4)} mm (scale ×${autoScale.toFixed(1)})`,
    );
    expect(moved[0]).toBeCloseTo(100, 4);
    expect(moved[2]).toBeCloseTo(expectedZ, 3);

    // The displacement coloured by its magnitude, in SI-prefixed metres.
    await page.selectOption('[data-testid=field-mode]', { label: 'Displacement (m)' });
    await expect.poll(async () => (await shown(frame, 0)).legend?.title).toBe('|Displacement|');
    expect((await shown(frame, 0)).legend).toMatchObject({ units: 'm', min: 0 });
    expect((await shown(frame, 0)).legend?.max).toBeCloseTo(1e-4, 9);

    // Turning the deformed shape off puts every vertex back.
    await page.getByLabel('Deformed shape').uncheck();
    await expect.poll(async () => (await shown(frame, far)).position?.[2]).toBeCloseTo(0, 6);
    await page.context().close();
  });

  it('the deformed shape is drawn inside the frame, and Zoom to fit frames it (qa29: the bar ran past it)', async () => {
    const page = await environmentPage(stand, { viewport: { width: 1366, height: 800 }, signUp: false });
    const frame = await viewerFrame(page);
    // the 100 mm bar pulled along its axis: u_x = 0.1 mm·x/L, so the exaggeration stretches it past its frame
    const mesh = boxMesh([L, 0.02, 0.02], [5, 1, 1]);
    const results = {
      solver_info: { elements: mesh.tetrahedra.length, matrix_size: 0, non_zeros: 0, analysis: 'synthetic' },
      vertices: mesh.vertices.map(([x, y, z]) => [x! * 1000, y! * 1000, z! * 1000]),
      faces: mesh.faces,
      tetrahedra: mesh.tetrahedra,
      length_unit: 'mm',
      fields: {
        displacement: {
          label: 'Displacement',
          unit: 'm',
          kind: 'vector',
          location: 'vertex',
          complex: false,
          role: 'deformation',
          data: mesh.vertices.map(([x]) => [1e-4 * (x! / L), 0, 0]),
        },
      },
      quantities: {},
    };
    const path = join(stand.server.dataDir, 'tension-results.json');
    writeFileSync(path, JSON.stringify(results));
    await page.setInputFiles('[data-testid=file-input]', path);
    await expect.poll(() => page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    await settled(frame);
    const autoScale = (0.05 * 100 * 1e-3) / 1e-4;
    await expect.poll(async () => (await shown(frame, 0)).deformation.scale).toBeCloseTo(autoScale, 3);
    const inFrame = async (when: string) => {
      const e = (await shown(frame, 0)).extent!;
      console.log(
        `${when}: drawn shape spans x ${e.x.map((v) => v.toFixed(2))}, y ${e.y.map((v) => v.toFixed(2))}`,
      );
      for (const v of [...e.x, ...e.y]) expect(Math.abs(v), when).toBeLessThan(1);
    };
    await inFrame('automatic exaggeration');
    await page.getByLabel('Exaggeration').fill(String(4 * autoScale));
    await expect.poll(async () => (await shown(frame, 0)).deformation.scale).toBeCloseTo(4 * autoScale, 3);
    await page.getByRole('button', { name: 'Zoom to fit' }).click();
    await settled(frame);
    await inFrame('×4 the automatic exaggeration after Zoom to fit');
    await page.context().close();
  });

  it('a structural results file: every quantity, its unit and the location fit in the results panel', async () => {
    // Found by qa29: "Max von Mises location 4.247, 6.177, 4.502 mm" did not wrap, so the whole column
    // was pushed past the panel's edge and read "10.45" (no MPa), "2" (safety factor 23.93).
    const page = await environmentPage(stand, { signUp: false });
    const mesh = boxMesh([L, 0.01, 0.01], [5, 1, 1]);
    const results = {
      solver_info: {
        elements: mesh.tetrahedra.length,
        matrix_size: 3066,
        non_zeros: 99741,
        analysis: 'structural',
      },
      vertices: mesh.vertices.map(([x, y, z]) => [x! * 1000, y! * 1000, z! * 1000]),
      faces: mesh.faces,
      tetrahedra: mesh.tetrahedra,
      length_unit: 'mm',
      quantities: {
        max_von_mises_Pa: 10.45e6,
        max_von_mises_location: [4.247123, 6.177456, 4.502789],
        safety_factor: 23.93,
        max_displacement_m: 4.984e-6,
        max_displacement_location: [100, 10, 0],
        strain_energy_J: 2.491e-3,
      },
    };
    const path = join(stand.server.dataDir, 'structural-results.json');
    writeFileSync(path, JSON.stringify(results));
    await page.setInputFiles('[data-testid=file-input]', path);
    await expect.poll(() => page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    await page.waitForSelector('[data-testid=quantity-max_von_mises_location]');
    const cells = await page.$$eval('[data-testid=quantities] td', (tds) => {
      // the panel's visible content edge: inside its scrollbar and padding
      const body = tds[0]!.closest('.panel-body') as HTMLElement;
      const padding = Number.parseFloat(getComputedStyle(body).paddingRight);
      const edge = body.getBoundingClientRect().left + body.clientWidth - padding;
      return tds.map((td) => ({ text: td.textContent, right: td.getBoundingClientRect().right, edge }));
    });
    console.log(cells.map((c) => `${c.text}: ${(c.edge - c.right).toFixed(0)} px inside`).join('; '));
    expect(cells.map((c) => c.text)).toContain('10.45 MPa');
    for (const c of cells) expect(c.right, c.text ?? '').toBeLessThanOrEqual(c.edge);
    await page.context().close();
  });
});
