import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openEnvironment, pickFace, viewerFrame } from '../support/environment-page.ts';
import { writeCoaxStep, writeFusedCoaxStep } from '../support/geometry-files.ts';
import { uploadAndMesh } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * Issue 40, as a new RF user met it on a vendor's SMA connector: a wave port on a coaxial face takes its TEM
 * mode (the Mode list starts at TE10), and a port whose pin is part of the dielectric's body (a connector
 * modelled as one fused solid) is named in a warning before the run, not after it reflected everything.
 */
const stand = serverAndBrowser({ webgl: true });

async function meshedPortFace(page: Page, step: string): Promise<number> {
  await openEnvironment(page, stand.server.origin);
  const frame = await viewerFrame(page);
  const mesh = await uploadAndMesh(page, step, { timeout: 120_000 });
  // a triangle of the annular end face z = 0 between r = 0.5 and 2.3 mm
  const annulus = mesh.faces.findIndex((f) =>
    f.every((k) => {
      const [x = 0, y = 0, z = 1] = mesh.vertices[k] ?? [];
      const r = Math.hypot(x, y);
      return Math.abs(z) < 1e-9 && r > 0.49 && r < 2.31;
    }),
  );
  expect(annulus).toBeGreaterThanOrEqual(0);
  await page.click('[data-testid=group-ports] .section-head');
  await page.check('[data-testid=use-wave-ports]');
  await page.click('[data-testid=add-wave-port]');
  expect(await page.inputValue('[data-testid=wave-port-0-mode]')).toBe('TE10');
  // one click on the face picks the whole CAD face
  await page.click('[data-testid=wave-port-0] button.pick');
  await pickFace(frame, annulus + 1);
  await expect.poll(() => page.inputValue('[data-testid=wave-port-0-faces]')).not.toBe('');
  await page.click('[data-testid=wave-port-0] button.pick');
  return annulus;
}

describe('wave ports on coaxial faces', () => {
  it('a coaxial annulus takes TEM, says so, and the S-parameter boxes show what the run does', async () => {
    const page = await (await stand.browser.newContext()).newPage();
    await meshedPortFace(page, writeCoaxStep(stand.server.dataDir));
    await expect.poll(() => page.inputValue('[data-testid=wave-port-0-mode]')).toBe('TEM');
    const note = await page.textContent('[data-testid=wave-port-0-shape]');
    console.log(`coax port: ${note}`);
    expect(note).toMatch(/^Coaxial face \(inner radius 0\.5\d*, outer 2\.3\d* mm\): its TEM mode/);
    expect(await page.$('[data-testid=wave-port-0-warning]')).toBeNull();
    // a mode the user chooses stays chosen
    await page.selectOption('[data-testid=wave-port-0-mode]', 'TE10');
    await page.fill('[data-testid=wave-port-0-amplitude]', '1');
    expect(await page.inputValue('[data-testid=wave-port-0-mode]')).toBe('TE10');
    // "Calculate" runs the sweep "Extract" names: the second box shows it
    await page.click('[data-testid=group-sparams] .section-head');
    expect(await page.isChecked('[data-testid=extract-sparams]')).toBe(false);
    await page.check('[data-testid=calculate-sparams]');
    expect(await page.isChecked('[data-testid=extract-sparams]')).toBe(true);
    expect(await page.isDisabled('[data-testid=extract-sparams]')).toBe(true);
    expect(await page.textContent('[data-testid=wave-port-0] .hint, [data-testid=wave-port-0]')).toContain(
      'drives each port in turn with 1 W',
    );
  });

  it('a port whose pin is fused into the dielectric is named in a warning before the run', async () => {
    const page = await (await stand.browser.newContext()).newPage();
    await meshedPortFace(page, writeFusedCoaxStep(stand.server.dataDir));
    const warning = await page.waitForSelector('[data-testid=wave-port-0-warning]');
    const text = await warning.textContent();
    console.log(`fused coax port: ${text}`);
    expect(text).toMatch(/^Port 1: the model's body goes on behind the port's inner boundary/);
  });
});
