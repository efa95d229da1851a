import { beforeAll, describe, expect, it } from 'vitest';
import {
  environmentPage,
  pickFace,
  received,
  recordViewerMessages,
  viewerFrame,
} from '../support/environment-page.ts';
import { writeCoaxStep, writeSelfIntersectingStl } from '../support/geometry-files.ts';
import { uploadAndMesh, uploadModel } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';

const EPS0 = 8.854187817e-12;
/** CAD upload and meshing come from the geometry issue; until its route is on the server these skip. */
let hasConvert = false;

const stand = serverAndBrowser();
beforeAll(async () => {
  const probe = await fetch(`${stand.server.origin}/api/convert-step`, { method: 'POST' });
  hasConvert = probe.status !== 404;
});

type Mesh = { vertices: number[][]; faces: number[][]; tetrahedra: number[][] };

/** 1-based ids of surface faces whose vertices all lie at radius r (model units, mm). */
function facesAtRadius(mesh: Mesh, r: number, tol: number): number[] {
  const radius = (v: number[]) => Math.hypot(v[0] ?? 0, v[1] ?? 0);
  const ids: number[] = [];
  mesh.faces.forEach((f, i) => {
    if (f.every((k) => Math.abs(radius(mesh.vertices[k] ?? []) - r) < tol)) ids.push(i + 1);
  });
  return ids;
}

describe('/environment with CAD: convert, mesh, run', () => {
  it('STEP coax section → convert → Generate Volume Mesh → two Dirichlet groups → Run → C per metre', async (ctx) => {
    if (!hasConvert) ctx.skip();
    const dims = { a: 0.5, b: 2.3, length: 5 };
    const step = writeCoaxStep(stand.server.dataDir, dims);
    const page = await environmentPage(stand, { viewport: { width: 1366, height: 800 } });
    const frame = await viewerFrame(page);
    await recordViewerMessages(frame);

    const mesh = await uploadAndMesh<Mesh>(page, step, {
      onSurfaceMesh: async () =>
        expect(await page.textContent('[data-testid=model-size]')).toMatch(
          /^4\.(6|59\d) × 4\.(6|59\d) × 5 mm$/,
        ),
      timeout: 120_000,
    });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('Meshing: completed');
    const inner = facesAtRadius(mesh, dims.a, 1e-3);
    const outer = facesAtRadius(mesh, dims.b, 1e-3);
    expect(inner.length).toBeGreaterThan(0);
    expect(outer.length).toBeGreaterThan(0);

    await page.click('[data-testid=add-dirichlet-group]');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.fill('[data-testid=dirichlet-group-0-faces]', outer.join(', '));
    // the inner conductor by one click in the viewer: the whole CAD face (face_patches) is picked
    await page.click('[data-testid=dirichlet-group-1] button.pick');
    await pickFace(frame, inner[Math.floor(inner.length / 2)] as number);
    await expect
      .poll(async () =>
        (await page.inputValue('[data-testid=dirichlet-group-1-faces]'))
          .split(', ')
          .map(Number)
          .sort((x, y) => x - y),
      )
      .toEqual([...inner].sort((x, y) => x - y));
    await page.click('[data-testid=dirichlet-group-1] button.pick');
    await page.click('[data-testid=group-curved] .section-head');
    await page.selectOption('[data-testid=mesh-order]', '2');
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=quantity-capacitance_F]', { timeout: 180_000 });
    const shown = (await page.textContent('[data-testid=quantity-capacitance_F] td')) ?? '';
    const [, value, prefix] = /([\d.]+) ([fpn])F/.exec(shown) ?? [];
    const scale = { f: 1e-15, p: 1e-12, n: 1e-9 }[prefix as 'f' | 'p' | 'n'];
    const expected = (2 * Math.PI * EPS0 * dims.length * 1e-3) / Math.log(dims.b / dims.a);
    const error = Math.abs(Number(value) * scale - expected) / expected;
    console.log(
      `coax C shown ${shown}, closed form ${(expected * 1e15).toFixed(2)} fF, error ${(error * 100).toFixed(2)} %`,
    );
    expect(error).toBeLessThan(0.02);
    await expect
      .poll(async () => (await received(frame)).some((m) => m.type === 'load-mesh' && m.eMagnitude))
      .toBe(true);
    await page.context().close();
  });

  it('a self-intersecting STL fails meshing and the problem markers are shown', async (ctx) => {
    if (!hasConvert) ctx.skip();
    const stl = writeSelfIntersectingStl(stand.server.dataDir);
    const page = await environmentPage(stand, { viewport: { width: 1366, height: 800 }, signUp: false });
    const frame = await viewerFrame(page);
    await recordViewerMessages(frame);
    await uploadModel(page, stl);
    await page.click('[data-testid=generate-volume-mesh]');
    await page.waitForSelector('[data-testid=meshing-notice]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('Meshing Failed');
    expect(await page.textContent('[data-testid=meshing-status-text]')).toBe(
      'Mesh generation failed - check geometry',
    );
    expect(await page.textContent('[data-testid=meshing-notice]')).toMatch(
      /^Meshing failed – highlighting problem areas reported by .+\./,
    );
    const marked = (await received(frame)).filter((m) => m.type === 'load-mesh' && m.problemFaces);
    expect(marked.at(-1)?.problemFaces?.length).toBeGreaterThan(0);
    await page.context().close();
  });
});
