import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FeaResults } from '../../src/environment/results/FeaResults.tsx';
import { loadCharts } from '../../src/environment/results/lazy-charts.tsx';
import { processResults } from '../../src/environment/results/process-results.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps } from './fakes.ts';
import coax from './fixtures/transient-coax.json';
import coaxMatrix from './fixtures/transient-coax-matrix.json';
import gap from './fixtures/transient-gap.json';
import waveguide from './fixtures/transient-waveguide.json';

// The charts are their own chunk (lazy-charts.tsx); loaded once here, the panels render at once.
beforeAll(() => loadCharts());

// Real em-time results from the engine (fixtures/make_transient_fixtures.py), mesh trimmed.

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function showResults(result: Record<string, unknown>, server = new FakeServer(), jobId?: string) {
  const { deps, store } = makeDeps(server);
  store.set({
    results: processResults(result),
    rawResults: result,
    analysis: { status: 'completed', progress: 100, jobId },
  });
  const bridge = new ViewerBridge(window, window.location.origin);
  render(
    <EnvironmentContext.Provider value={{ store: deps.store, deps, bridge, jobs: createJobControls() }}>
      <FeaResults />
    </EnvironmentContext.Provider>,
  );
}

/** Captures what the panel saves (saveBlob goes through an object URL and a link click). */
function captureDownloads() {
  const saved: Blob[] = [];
  const names: string[] = [];
  Object.assign(URL, {
    createObjectURL: (b: Blob) => {
      saved.push(b);
      return 'blob:test';
    },
    revokeObjectURL: () => {},
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { saved, names };
}

/** jsdom's Blob has no text(). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

describe('results panel for a time-domain (em-time) result', () => {
  it('plots port signals against time and the pulse’s S11/S21 with the frequency-domain plot and table', () => {
    showResults(coax);
    const section = screen.getByTestId('time-domain');
    expect(within(section).getByText('Time-domain')).toBeTruthy();
    const summary = within(section).getByTestId('time-domain-summary');
    expect(within(summary).getByText('80 × 5 ps · newmark')).toBeTruthy();
    expect(within(summary).getByText('Gaussian pulse, width 30 ps, delay 150 ps')).toBeTruthy();
    const volts = screen.getByLabelText('Voltages (V)');
    const lines = volts.querySelectorAll('polyline');
    expect(lines).toHaveLength(3);
    expect(lines[0]?.getAttribute('points')?.split(' ')).toHaveLength(coax.time_domain_info.times.length);
    expect(screen.getByLabelText('Currents (A)')).toBeTruthy();
    expect(screen.getByLabelText('|E| at probes (V/m)')).toBeTruthy();
    expect(screen.getByLabelText('Stored energy (J)')).toBeTruthy();
    // time axis in ns: 0 … 0.4 ns
    expect(within(volts).getByText('0.4 ns')).toBeTruthy();

    const response = screen.getByTestId('transient-response');
    expect(within(response).getByText(/column of driven port 1/)).toBeTruthy();
    const plot = within(response).getByTestId('sparam-plot');
    expect(within(plot).getByLabelText('|S| (dB)').querySelectorAll('polyline')).toHaveLength(2);
    // frequency axis (up to 27.9 GHz) on round ticks, on both the |S| and the phase chart
    expect(within(plot).getAllByText('10 GHz')).toHaveLength(2);
    expect(within(plot).getAllByText('20 GHz')).toHaveLength(2);
    const table = within(response).getByTestId('sparam-table');
    const heads = [...table.querySelectorAll('thead tr:first-child th')].map((th) => th.textContent);
    expect(heads).toEqual(['Frequency', 'S11', 'S21']);
    const rows = table.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(coax.time_domain_info.frequency_response.frequencies.length);
    // first row: |S21| of the matched line ≈ −0.27 dB
    const s21 = coax.time_domain_info.frequency_response.s_parameters.column.S21[0] ?? [0, 0];
    const db = (20 * Math.log10(Math.hypot(s21[0] ?? 0, s21[1] ?? 0))).toFixed(2);
    expect(rows[0]?.querySelectorAll('td')[3]?.textContent).toBe(db);
    // no frames: the spec's Enable Animation stays
    expect(screen.getByTestId('enable-animation').textContent).toBe('Enable Animation');
  });

  it('shows a voltage source’s input impedance and S11 against its resistance', () => {
    showResults(gap);
    const z = screen.getByLabelText('Input impedance (Ω)');
    expect(z.querySelectorAll('polyline')).toHaveLength(2);
    expect(screen.getByText('Re Z')).toBeTruthy();
    expect(screen.getByText(/S11 of gap_0 against its 188(\.\d+)? Ω source/)).toBeTruthy();
    const heads = [...screen.getByTestId('sparam-table').querySelectorAll('thead tr:first-child th')];
    expect(heads.map((th) => th.textContent)).toEqual(['Frequency', 'S11']);
    expect(screen.getByLabelText('Voltages (V)').querySelectorAll('polyline')).toHaveLength(1);
    // energies of ~1e-14 J still span the chart (not drawn as a flat line)
    const total = screen.getByLabelText('Stored energy (J)').querySelectorAll('polyline')[2];
    const ys = (total?.getAttribute('points') ?? '').split(' ').map((p) => Number(p.split(',')[1]));
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(80);
    // a baseband pulse has no carrier: no "Frequency DC" row
    expect(screen.getByTestId('solver-info').textContent).not.toMatch(/Frequency/);
  });

  it('says when TE10 ports are matched at the carrier only', () => {
    showResults(waveguide);
    expect(screen.getByTestId('port-mismatch').textContent).toBe(
      'Port 1 is matched at the carrier only: up to 28.9 % reflection across the band; ' +
        'Port 2 is matched at the carrier only: up to 28.9 % reflection across the band.',
    );
    expect(within(screen.getByTestId('time-domain-summary')).getByText(/at 10 GHz/)).toBeTruthy();
  });

  it('lists the ringing frequency at each probe with the time scheme’s warping undone, and the recorded one', () => {
    showResults(waveguide);
    const table = within(screen.getByTestId('resonances'));
    const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);
    const rows = screen.getByTestId('resonances').querySelectorAll('tbody tr');
    // the engine's peak: 7.2256 GHz corrected from the 7.1052 GHz Newmark recorded at Δt = 10 ps
    const [peak] = waveguide.time_domain_info.resonances.probes[0]?.peaks ?? [];
    expect(peak?.frequency_hz).toBeGreaterThan(peak?.recorded_frequency_hz ?? Infinity);
    expect(rows).toHaveLength(1);
    expect(cells(rows[0] as Element)).toEqual([
      'centre (Ey)',
      '7.2256 GHz',
      '7.1052 GHz',
      'Newmark warping undone (tan map)',
    ]);
    expect(table.getByText(/Corrected for the time step: f = tan\(pi f_d dt\)/)).toBeTruthy();

    // a short run whose tail holds no peak in the band still names its probe
    cleanup();
    showResults(gap);
    const gapRows = screen.getByTestId('resonances').querySelectorAll('tbody tr');
    expect(cells(gapRows[0] as Element)).toEqual(['centre (Ey)', 'no peak in the band']);

    // BDF2 (scheme "implicit") has no closed-form map: the engine reports the peaks as recorded, uncorrected;
    // a second probe gets its own rows (the table iterates the data, not known probe names)
    cleanup();
    const info = waveguide.time_domain_info;
    const probe = info.resonances.probes[0];
    const mhz = { frequency_hz: 912_340_000, recorded_frequency_hz: 912_340_000, magnitude: 0.5 };
    showResults({
      ...waveguide,
      time_domain_info: {
        ...info,
        scheme: 'implicit',
        resonances: {
          ...info.resonances,
          warping: 'implicit: no closed-form correction; frequencies as recorded',
          corrected: false,
          probes: [probe, { probe: 'feed', component: 'z', peaks: [mhz] }],
        },
      },
    });
    const bdfRows = [...screen.getByTestId('resonances').querySelectorAll('tbody tr')].map(cells);
    expect(bdfRows).toEqual([
      ['centre (Ey)', '7.2256 GHz', '7.1052 GHz', 'not corrected'],
      ['feed (Ez)', '912.34 MHz', '912.34 MHz', 'not corrected'],
    ]);
    expect(screen.getByTestId('resonances').textContent).toMatch(/Not corrected for the time step/);

    // a run without the field (sinusoidal drive or an older result) shows no table
    cleanup();
    showResults(coax);
    expect(screen.queryByTestId('resonances')).toBeNull();
  });

  it('downloads the time series and the frequency response as CSV built in the browser', async () => {
    const { saved, names } = captureDownloads();
    showResults(coax);
    // One column only (no S-parameters requested): the server has no Touchstone export for this run.
    expect(screen.queryByTestId('download-touchstone')).toBeNull();
    fireEvent.click(screen.getByTestId('download-time-series'));
    fireEvent.click(screen.getByTestId('download-frequency-response'));
    expect(names).toEqual(['fea_time_series.csv', 'fea_frequency_response.csv']);
    const [series, response] = await Promise.all(saved.map(blobText));
    expect(series?.split('\n')[0]).toMatch(/^time_s,port_1_voltage_V,/);
    expect(series?.trimEnd().split('\n')).toHaveLength(coax.time_domain_info.times.length + 1);
    expect(response?.split('\n')[0]).toBe(
      'frequency_hz,S11_re,S11_im,S11_db,S11_deg,S21_re,S21_im,S21_db,S21_deg',
    );
  });

  it('shows the full S-matrix of a port-by-port run and downloads its Touchstone file from the server', async () => {
    const { saved, names } = captureDownloads();
    const touchstone = '! Fieldline full-wave S-parameters, 2-port, method wave_port\n# HZ S RI R 50\n';
    const server = new FakeServer().on('/api/fea/download/job-7', {
      status: 200,
      body: touchstone,
      headers: { 'content-disposition': 'attachment; filename="sparameters.s2p"' },
    });
    showResults(coaxMatrix, server, 'job-7');
    // the 2×2 matrix in the frequency-domain S-parameter table, read from the engine's s_parameters
    const tables = screen.getAllByTestId('sparam-table');
    const matrixTable = tables[tables.length - 1] as HTMLElement;
    const heads = [...matrixTable.querySelectorAll('thead tr:first-child th')].map((th) => th.textContent);
    expect(heads).toEqual(['Frequency', 'S11', 'S12', 'S21', 'S22']);
    const rows = matrixTable.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(coaxMatrix.s_parameters.frequencies.length);
    const s12 = coaxMatrix.s_parameters.matrix[0]?.[0]?.[1] ?? [0, 0];
    const db = (20 * Math.log10(Math.hypot(s12[0] ?? 0, s12[1] ?? 0))).toFixed(2);
    expect(rows[0]?.querySelectorAll('td')[3]?.textContent).toBe(db);
    expect(screen.getByTestId('sparam-source').textContent).toMatch(
      /one pulse per wave port.*2 runs; modal \(each port's mode, 1 W\)/,
    );
    // Touchstone (.s2p) and the S-parameter CSV from the server; the time series stay local
    const button = screen.getByTestId('download-touchstone');
    expect(button.textContent).toBe('Touchstone (.s2p)');
    expect(screen.getByTestId('download-sparameter-csv')).toBeTruthy();
    fireEvent.click(button);
    await vi.waitFor(() => expect(names).toEqual(['sparameters.s2p']));
    expect(server.calls.map((c) => c.path)).toEqual(['/api/fea/download/job-7?format=touchstone']);
    // the fetched body is the server's bytes (a Node Blob from fetch, read through Response)
    expect(await new Response(saved[0]).text()).toBe(touchstone);
    fireEvent.click(screen.getByTestId('download-time-series'));
    expect(names).toEqual(['sparameters.s2p', 'fea_time_series.csv']);
  });

  it('offers no Touchstone for a results file loaded from disk (no job on the server)', () => {
    showResults(coaxMatrix);
    expect(screen.queryByTestId('download-touchstone')).toBeNull();
    expect(screen.getByTestId('download-time-series')).toBeTruthy();
  });

  it('offers no time-domain section or downloads for a frequency-domain result', () => {
    const { time_domain_info: _, ...frequencyDomain } = coax;
    showResults({ ...frequencyDomain, solver_info: { analysis: 'em' } });
    expect(screen.queryByTestId('time-domain')).toBeNull();
    expect(screen.queryByTestId('download-time-series')).toBeNull();
    expect(screen.queryByTestId('download-frequency-response')).toBeNull();
    expect(screen.queryByTestId('enable-animation')).toBeNull();
  });
});
