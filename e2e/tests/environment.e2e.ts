import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { capacitorMeshFile, loadCapacitorTerminals } from '../support/capacitor-model.ts';
import {
  openEnvironment,
  pickFace,
  received,
  recordViewerMessages,
  signUp,
  viewerFrame,
} from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';

const EPS0 = 8.854187817e-12;

const stand = serverAndBrowser();

async function newPage(): Promise<Page> {
  const context = await stand.browser.newContext({
    viewport: { width: 1366, height: 800 },
    acceptDownloads: true,
  });
  return context.newPage();
}

describe('/environment with a volume mesh, against the real server and engine', () => {
  it('configures two Dirichlet face groups (typed and picked in the viewer), runs, shows C and sends fields', async () => {
    const page = await newPage();
    await openEnvironment(page, stand.server.origin);
    await signUp(page);
    const frame = await viewerFrame(page);
    await recordViewerMessages(frame);
    const cap = capacitorMeshFile(stand.server.dataDir);

    await page.setInputFiles('[data-testid=file-input]', cap.path);
    await page.waitForSelector('[data-testid=config-form]');
    expect(await page.textContent('[data-testid=status-chip]')).toBe('Ready for Analysis');

    await page.click('[data-testid=add-dirichlet-group]');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.fill('[data-testid=dirichlet-group-0-faces]', cap.bottom.join(', '));
    await page.fill('[data-testid=dirichlet-group-1-voltage]', '3');
    // group 2 by clicking faces in the viewer
    await page.click('[data-testid=dirichlet-group-1] button.pick');
    for (const id of cap.top) await pickFace(frame, id);
    await expect
      .poll(() => page.inputValue('[data-testid=dirichlet-group-1-faces]'))
      .toBe(cap.top.join(', '));

    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=quantity-capacitance_F]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    const shown = (await page.textContent('[data-testid=quantity-capacitance_F] td')) ?? '';
    const expected = (EPS0 * 0.005 * 0.005) / cap.gap; // 221.35 fF, exact for a uniform field
    const [, value] = /([\d.]+) fF/.exec(shown) ?? [];
    const error = Math.abs(Number(value) * 1e-15 - expected) / expected;
    console.log(
      `capacitance shown ${shown}, closed form ${(expected * 1e15).toFixed(2)} fF, error ${(error * 100).toFixed(3)} %`,
    );
    expect(error).toBeLessThan(0.005);

    // the viewer received the fields: |E| = 3 V / 1 mm at every vertex
    await expect
      .poll(async () => (await received(frame)).filter((m) => m.type === 'load-mesh' && m.eMagnitude).length)
      .toBeGreaterThan(0);
    const load = (await received(frame)).filter((m) => m.type === 'load-mesh' && m.eMagnitude).at(-1);
    expect(load?.vertices).toBe(cap.mesh.vertices.length);
    for (const e of load?.eMagnitude ?? []) expect(Math.abs(e - 3000) / 3000).toBeLessThan(0.01);
    await page.context().close();
  });

  it('runs a time-domain analysis fed between the two plates: signals vs time, Z_in of the capacitor, CSV', async () => {
    const page = await newPage();
    await openEnvironment(page, stand.server.origin);
    await signUp(page);
    const cap = capacitorMeshFile(stand.server.dataDir);
    await loadCapacitorTerminals(page, cap, '1');
    await page.click('[data-testid=group-transient] .section-head');
    await page.check('[data-testid=transient]');
    await page.getByLabel('Time step', { exact: true }).fill('2e-12');
    await page.getByLabel('End time', { exact: true }).fill('2e-10');
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=time-domain]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    expect(await page.locator('[aria-label="Voltages (V)"] polyline').count()).toBe(1);
    expect(await page.locator('[aria-label="Input impedance (Ω)"] polyline').count()).toBe(2);
    const heads = await page.locator('[data-testid=sparam-table] thead tr:first-child th').allTextContents();
    expect(heads).toEqual(['Frequency', 'S11']);
    await page.waitForSelector('[data-testid=enable-animation]');
    if (process.env.E2E_SCREENSHOTS)
      await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, 'environment-transient.png') });

    const downloading = page.waitForEvent('download');
    await page.click('[data-testid=download-frequency-response]');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('fea_frequency_response.csv');
    const saved = join(stand.server.dataDir, 'fea_frequency_response.csv');
    await download.saveAs(saved);
    const [header, ...rows] = readFileSync(saved, 'utf8').trimEnd().split('\n');
    expect(header).toBe('frequency_hz,S11_re,S11_im,S11_db,S11_deg,Zin_gap_0_re_ohm,Zin_gap_0_im_ohm');
    // Below a few GHz the plates are a capacitor: Z_in ≈ 1/(jωC), C = ε0·A/d.
    const c = (EPS0 * 0.005 * 0.005) / cap.gap;
    const [f, , , , , , zIm] = (rows[0] ?? '').split(',').map(Number);
    const exact = -1 / (2 * Math.PI * (f ?? 0) * c);
    const error = Math.abs(((zIm ?? 0) - exact) / exact);
    console.log(
      `Z_in at ${((f ?? 0) / 1e9).toFixed(3)} GHz: Im ${zIm?.toFixed(1)} Ω vs −1/ωC ${exact.toFixed(1)} Ω (${(error * 100).toFixed(2)} %)`,
    );
    expect(error).toBeLessThan(0.05);
    await page.context().close();
  });

  it('opens and closes the raw JSON drawer, downloads the JSON and loads it again as results', async () => {
    const page = await newPage();
    await openEnvironment(page, stand.server.origin);
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    await page.click('[data-testid=raw-json-button]');
    await expect.poll(() => alerts).toEqual(['No analysis results available yet.']);

    await signUp(page);
    const cap = capacitorMeshFile(stand.server.dataDir);
    await page.setInputFiles('[data-testid=file-input]', cap.path);
    await page.click('[data-testid=add-dirichlet-group]');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.fill('[data-testid=dirichlet-group-0-faces]', cap.bottom.join(','));
    await page.fill('[data-testid=dirichlet-group-1-faces]', cap.top.join(','));
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=quantity-capacitance_F]', { timeout: 120_000 });
    const capacitance = await page.textContent('[data-testid=quantity-capacitance_F] td');

    await page.click('[data-testid=raw-json-button]');
    await page.waitForSelector('[data-testid=raw-json-drawer]');
    const downloading = page.waitForEvent('download');
    await page.click('[data-testid=raw-json-download]');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('fea_results_raw.json');
    const saved = join(stand.server.dataDir, 'fea_results_raw.json');
    await download.saveAs(saved);
    expect(JSON.parse(readFileSync(saved, 'utf8')).solver_info.elements).toBe(cap.mesh.tetrahedra.length);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=raw-json-drawer]', { state: 'detached' });

    await page.click('[data-testid=clear-data]');
    expect(await page.textContent('[data-testid=status-chip]')).toBe('No model loaded');
    await page.setInputFiles('[data-testid=file-input]', saved);
    await page.waitForSelector('[data-testid=quantity-capacitance_F]');
    expect(await page.textContent('[data-testid=quantity-capacitance_F] td')).toBe(capacitance);
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    await page.context().close();
  });

  it('a downloaded results file loaded again restores the form it ran with and shows the run settings', async () => {
    const page = await newPage();
    await openEnvironment(page, stand.server.origin);
    await signUp(page);
    const cap = capacitorMeshFile(stand.server.dataDir);
    await page.setInputFiles('[data-testid=file-input]', cap.path);
    await page.waitForSelector('[data-testid=config-form]');
    await page.fill('[data-testid=frequency-input]', '1.5');
    await page.press('[data-testid=frequency-input]', 'Tab');
    await page.click('[data-testid=group-curved] .section-head');
    await page.selectOption('[data-testid=mesh-order]', '2');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.getByLabel('Name').nth(0).fill('ground');
    await page.getByLabel('Name').nth(1).fill('signal');
    await page.fill('[data-testid=dirichlet-group-0-faces]', cap.bottom.join(', '));
    await page.fill('[data-testid=dirichlet-group-1-faces]', cap.top.join(', '));
    await page.fill('[data-testid=dirichlet-group-1-voltage]', '2.5');
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=run-settings]', { timeout: 120_000 });
    const summary = await page.textContent('[data-testid=run-settings] table');
    expect(summary).toContain('1.5 GHz');
    expect(summary).toContain('ground 0 V, signal 2.5 V');

    const downloading = page.waitForEvent('download');
    await page.click('[data-testid=download-results-json]');
    const saved = join(stand.server.dataDir, 'saved-run.json');
    await (await downloading).saveAs(saved);
    const config = JSON.parse(readFileSync(saved, 'utf8')).analysis_config;
    expect(config).toMatchObject({ frequency: 1.5e9, meshOrder: 2 });

    await page.click('[data-testid=clear-data]');
    expect(await page.textContent('[data-testid=status-chip]')).toBe('No model loaded');
    await page.setInputFiles('[data-testid=file-input]', saved);
    await page.waitForSelector('[data-testid=form-restored]');
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    expect(await page.inputValue('[data-testid=frequency-input]')).toBe('1.5');
    await page.click('[data-testid=group-curved] .section-head'); // the form was mounted anew, groups closed
    expect(await page.inputValue('[data-testid=mesh-order]')).toBe('2');
    expect(await page.getByLabel('Name').nth(0).inputValue()).toBe('ground');
    expect(await page.inputValue('[data-testid=dirichlet-group-0-faces]')).toBe(cap.bottom.join(', '));
    expect(await page.inputValue('[data-testid=dirichlet-group-1-faces]')).toBe(cap.top.join(', '));
    expect(await page.inputValue('[data-testid=dirichlet-group-1-voltage]')).toBe('2.5');
    expect(await page.textContent('[data-testid=run-settings] table')).toBe(summary);
    expect(await page.textContent('[data-testid=form-restored]')).toContain('saved-run.json');
    if (process.env.E2E_SCREENSHOTS)
      await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, 'environment-run-settings.png') });
    await page.context().close();
  });

  it('sends a guest who presses Run to log in and brings them back to the same model and configuration', async () => {
    const other = await newPage();
    await openEnvironment(other, stand.server.origin);
    const account = await signUp(other);
    await other.context().close();

    const page = await newPage();
    await openEnvironment(page, stand.server.origin);
    const cap = capacitorMeshFile(stand.server.dataDir);
    await page.setInputFiles('[data-testid=file-input]', cap.path);
    await page.click('[data-testid=add-dirichlet-group]');
    await page.fill('[data-testid=dirichlet-group-0-faces]', '3, 4, 5');
    await page.click('[data-testid=run-analysis]');
    await page.waitForURL(/#\/userdatabase\/Login/);
    await page.fill('#login-email', account.email);
    await page.fill('#login-password', account.password);
    await page.click('button[type=submit]');
    await page.waitForURL(/#\/environment/);
    await page.waitForSelector('[data-testid=analysis-notice]');
    expect(await page.textContent('.file-name')).toBe('capacitor.json');
    expect(await page.inputValue('[data-testid=dirichlet-group-0-faces]')).toBe('3, 4, 5');
    await page.context().close();
  });
});
