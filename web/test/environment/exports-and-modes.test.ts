import { AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { FeaApi } from '../../src/environment/api/fea-api.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { hzLabel } from '../../src/environment/families/vibration/results/HarmonicResponse.tsx';
import { numberWithUnit } from '../../src/environment/meshing/MeshQualityReport.tsx';
import { parseProblemMarkers, problemAreasMessage } from '../../src/environment/meshing/problem-markers.ts';
import { harmonicResponse } from '../../src/environment/results/harmonic-response.ts';
import { harmonicResponseCsv } from '../../src/environment/results/harmonic-response-csv.ts';
import { extractQuantities, formatSI, quantityText } from '../../src/environment/results/quantities.ts';
import { extractSParameters, magnitudeDb, phaseDeg } from '../../src/environment/results/s-parameters.ts';
import { resultsToVtu } from '../../src/environment/results/vtu-export.ts';
import { completedResults } from './fakes.ts';

describe('analysis types and formulation', () => {
  it('forces full-wave only when asked, and sends the eigenmode settings for em-eigen', () => {
    const form = { ...defaultAnalysisForm(), frequencyHz: 2e9 };
    expect(toBackendConfig(form).mode).toBe('electro');
    expect(toBackendConfig({ ...form, formulation: 'fullwave' }).mode).toBe('fullwave');
    expect(toBackendConfig({ ...form, formulation: 'fullwave', transient: true }).mode).toBe('electro-time');
    const eigen = toBackendConfig({
      ...form,
      analysisType: 'em-eigen',
      eigenNumModes: '80',
      eigenFieldMode: '2',
    });
    expect(eigen).toMatchObject({
      analysisType: 'em-eigen',
      mode: 'electro-eigen',
      eigenNumModes: 50,
      eigenFieldMode: 2,
    });
    expect(toBackendConfig({ ...form, analysisType: 'em-eigen', eigenNumModes: 'x' }).eigenNumModes).toBe(6);
    expect(() => AnalysisConfig.parse(eigen)).not.toThrow();
  });
});

describe('exports', () => {
  it('writes a VTU grid with the tetrahedra and the vertex fields', () => {
    const vtu = resultsToVtu(completedResults);
    expect(vtu).toContain('<Piece NumberOfPoints="5" NumberOfCells="2">');
    expect(vtu).toContain('Name="connectivity" format="ascii">0 1 2 3 1 2 3 4<');
    expect(vtu).toContain('Name="offsets" format="ascii">4 8<');
    expect(vtu).toContain('Name="types" format="ascii">10 10<');
    expect(vtu).toContain(
      'Name="electric_field [V/m]" NumberOfComponents="3" format="ascii">1 0 0 0 2 0 0 0 3 4 0 0 0 0 5<',
    );
  });

  it('downloads exports with the server file name, and reports Download failed: {status}', async () => {
    const api = new FeaApi(async (path) =>
      path.endsWith('?format=touchstone')
        ? new Response('! touchstone', {
            status: 200,
            headers: { 'content-disposition': 'attachment; filename="sparameters.s2p"' },
          })
        : new Response('gone', { status: 410 }),
    );
    const got = await api.download('j', 'touchstone');
    expect(got.fileName).toBe('sparameters.s2p');
    await expect(api.download('j')).rejects.toThrow('Download failed: 410');
  });
});

describe('S-parameters', () => {
  it('reads the full-wave matrix form and shows |S| in dB and phase', () => {
    const s = extractSParameters({
      s_parameters: {
        frequencies: [1e9, 2e9],
        matrix: [
          [
            [
              [0.1, 0],
              [0, -1],
            ],
            [
              [0, -1],
              [0.1, 0],
            ],
          ],
          [
            [
              [0, 0.1],
              [-1, 0],
            ],
            [
              [-1, 0],
              [0, 0.1],
            ],
          ],
        ],
        port_impedances: [50, 50],
      },
    });
    expect(s?.series.map((x) => x.name)).toEqual(['S11', 'S12', 'S21', 'S22']);
    const s21 = s?.series[2];
    expect(magnitudeDb(s21?.re[0] ?? 0, s21?.im[0] ?? 0)).toBeCloseTo(0, 9);
    expect(phaseDeg(s21?.re[0] ?? 0, s21?.im[0] ?? 0)).toBeCloseTo(-90, 9);
    expect(magnitudeDb(s?.series[0]?.re[0] ?? 0, 0)).toBeCloseTo(-20, 9);
    expect(s?.portImpedances).toEqual([50, 50]);
  });
  it('formats SI quantities', () => {
    expect(formatSI(2.214e-13, 'F')).toBe('221.4 fF');
    expect(formatSI(50, 'Ω')).toBe('50 Ω');
    expect(formatSI(1.5e9, 'Hz')).toBe('1.5 GHz');
    // the kilogram is already prefixed: no "157 mkg"
    expect(formatSI(0.157, 'kg')).toBe('0.157 kg');
    expect(formatSI(2.5e-5, 'kg')).toBe('25 mg');
  });
  it('gives the mesh volumes their unit and starts a vibration band at 0 Hz, not "DC"', () => {
    expect(numberWithUnit('volume', 15620.4, 'mm')).toBe('15620 mm³');
    expect(numberWithUnit('min_volume', 0.61149, 'mm')).toBe('0.6115 mm³');
    expect(numberWithUnit('min_quality', 0.32451, 'mm')).toBe('0.3245');
    expect(hzLabel(0)).toBe('0 Hz');
    expect(hzLabel(1200)).toBe('1.2 kHz');
  });
  it('labels structural quantities as an engineer writes them, locations in the model unit', () => {
    const shown = extractQuantities({
      length_unit: 'mm',
      quantities: {
        max_von_mises_Pa: 56.43e6,
        max_von_mises_location: [49, 15, 6],
        max_displacement_m: 9.673e-6,
        max_displacement_location: [60, 15.000000000000044, 36],
        total_mass_kg: 0.157,
      },
    });
    const text = Object.fromEntries(shown.map((q) => [q.label, quantityText(q)]));
    expect(text).toEqual({
      'Max von Mises': '56.43 MPa',
      'Max von Mises location': '49, 15, 6 mm',
      'Max displacement': '9.673 µm',
      'Max displacement location': '60, 15, 36 mm',
      'Total mass': '0.157 kg',
    });
  });
  it('shows effective mass fractions as percent (qa29: "0.8075" and "5.593e-14" were printed raw)', () => {
    const shown = extractQuantities({
      quantities: { effective_mass_fraction: { x: 0.80753, y: 5.593e-14, z: 0.8039 } },
    });
    const fraction = shown.find((q) => q.key === 'effective_mass_fraction')!;
    expect(fraction.unit).toBe('%');
    const text = Object.values(fraction.value as Record<string, number>).map((v) =>
      formatSI(v, fraction.unit),
    );
    expect(text).toEqual(['80.8 %', '0.0 %', '80.4 %']);
  });

  it('a harmonic run names the probe its peak was read at (qa31: read as the whole part’s response)', () => {
    const one = extractQuantities({
      quantities: { first_frequency_Hz: 3122, peak_frequency_Hz: 3100, peak_displacement_m: 8.01e-7 },
      harmonic_response: { probes: [{ name: 'P1', point: [0, 0, 0] }] },
    });
    expect(one.map((q) => `${q.label}: ${quantityText(q)}`)).toEqual([
      'First frequency: 3.122 kHz',
      'Peak frequency at probe P1: 3.1 kHz',
      'Peak displacement at probe P1: 801 nm',
    ]);
    const two = extractQuantities({
      quantities: { peak_displacement_m: 1e-6 },
      harmonic_response: { probes: [{ name: 'tip' }, { name: 'base' }] },
    });
    expect(two[0]!.label).toBe('Peak displacement at the probes');
  });

  it('a time-domain run names the probe it rang at, and gives |E| in V/m', () => {
    const shown = extractQuantities({
      quantities: {
        resonance_frequency_Hz: 7.2113e9,
        peak_port_voltage_V: 0.4992,
        peak_energy_J: 3.07e-16,
        peak_electric_field_V_per_m: 4.76,
      },
      time_domain_info: { resonances: { probes: [{ probe: 'P1', component: 'y', peaks: [] }] } },
    });
    expect(shown.map((q) => `${q.label}: ${quantityText(q)}`)).toEqual([
      'Ringing frequency at probe P1: 7.211 GHz',
      'Peak port voltage: 499.2 mV',
      'Peak energy: 307 aJ',
      'Peak |E| at the probes: 4.76 V/m',
    ]);
  });
});

describe('problem markers', () => {
  it('names the meshers that failed, as the geometry pipeline records them', () => {
    const payload = parseProblemMarkers({
      format: 'problem_markers',
      vertices: [[0, 0, 0]],
      faces: [],
      problem_vertices: [0],
      problem_faces: [],
      diagnostics: [
        { kind: 'self_intersection', message: 'Triangles 3 and 9 intersect', faces: [3, 9], vertices: [] },
      ],
      attempts: [
        { mesher: 'gmsh HXT', ok: false },
        { mesher: 'Netgen', ok: false },
      ],
    });
    expect(problemAreasMessage(payload?.mesher)).toBe(
      'Meshing failed – highlighting problem areas reported by gmsh HXT and Netgen.',
    );
    expect(parseProblemMarkers({ vertices: [[0, 0, 0]], faces: [] })).toBeNull();
  });
});

describe('transient settings', () => {
  it('maps the pulse, complete probes and volume currents; blanks are automatic', () => {
    const form = {
      ...defaultAnalysisForm(),
      transient: true,
      pulseShape: 'modulated_gaussian' as const,
      pulseWidth: '2e-10',
      pulseDelay: '',
      pulseFrequency: '5e9',
      probes: [
        { key: 'a', name: 'feed', point: ['1', '2', '3'] as [string, string, string] },
        { key: 'b', name: '', point: ['1', '', '3'] as [string, string, string] },
      ],
      volumeCurrents: [
        {
          key: 'c',
          density: ['0', '0', '1e6'] as [string, string, string],
          region: '1',
          boxMin: ['', '', ''] as [string, string, string],
          boxMax: ['', '', ''] as [string, string, string],
          phase: '',
        },
        {
          key: 'd',
          density: ['1', '0', '0'] as [string, string, string],
          region: '',
          boxMin: ['0', '0', '0'] as [string, string, string],
          boxMax: ['1', '1', '1'] as [string, string, string],
          phase: '90',
        },
        {
          key: 'e',
          density: ['1', '0', '0'] as [string, string, string],
          region: '',
          boxMin: ['', '', ''] as [string, string, string],
          boxMax: ['', '', ''] as [string, string, string],
          phase: '0',
        },
      ],
    };
    const c = toBackendConfig(form);
    expect(c).toMatchObject({
      analysisType: 'em-time',
      pulseShape: 'modulated_gaussian',
      pulseWidth: 2e-10,
      pulseDelay: 0,
      pulseFrequency: 5e9,
    });
    expect(c.probePoints).toEqual([{ name: 'feed', point: [1, 2, 3] }]);
    expect(c.volumeCurrents).toEqual([
      { density: [0, 0, 1e6], region: 1, phase: 0 },
      { density: [1, 0, 0], boxMin: [0, 0, 0], boxMax: [1, 1, 1], phase: 90 },
    ]);
    expect(() => AnalysisConfig.parse(c)).not.toThrow();
  });
});

describe('exports iterate the named fields', () => {
  it('writes every vertex field with its name, components and unit to CSV and VTU', async () => {
    const { vertexFieldsCsv } = await import('../../src/environment/results/vertex-csv.ts');
    const results = {
      ...completedResults,
      efields: undefined,
      field_magnitudes: undefined,
      fields: {
        temperature: {
          label: 'Temperature',
          unit: 'K',
          kind: 'scalar',
          location: 'vertex',
          data: [1, 2, 3, 4, 5],
        },
        stress: {
          label: 'Stress',
          unit: 'Pa',
          kind: 'tensor',
          location: 'cell',
          data: [
            [1, 2, 3, 4, 5, 6],
            [6, 5, 4, 3, 2, 1],
          ],
        },
      },
    };
    const csv = vertexFieldsCsv(results).split('\n');
    expect(csv[0]).toBe('x,y,z,temperature [K]');
    expect(csv[1]?.endsWith(',1')).toBe(true);
    const vtu = resultsToVtu(results);
    expect(vtu).toContain('Name="temperature [K]" NumberOfComponents="1" format="ascii">1 2 3 4 5<');
    expect(vtu).toContain('<CellData><DataArray type="Float64" Name="stress [Pa]" NumberOfComponents="6"');
  });
});

describe('harmonic response CSV', () => {
  const series = (amp: number[][], deg: number[][]) => ({ amplitude: amp, phase_deg: deg });
  const result = {
    harmonic_response: {
      frequencies: [100, 200],
      method: 'modal',
      probes: [
        {
          name: 'Tip end',
          point: [1, 0, 0],
          displacement: series(
            [
              [0, 1e-6, 2e-6],
              [0, 3e-6, 4e-6],
            ],
            [
              [0, -10, -20],
              [0, -90, -100],
            ],
          ),
          velocity: series(
            [
              [0, 6.3e-4, 1.3e-3],
              [0, 3.8e-3, 5e-3],
            ],
            [
              [0, 80, 70],
              [0, 0, -10],
            ],
          ),
          acceleration: series(
            [
              [0, 0.39, 0.79],
              [0, 4.7, 6.3],
            ],
            [
              [0, 170, 160],
              [0, 90, 80],
            ],
          ),
        },
      ],
      units: { frequency: 'Hz', displacement: 'm', velocity: 'm/s', acceleration: 'm/s^2' },
    },
  };

  it('writes one row per frequency with amplitude and phase of u, v and a per component', () => {
    const data = harmonicResponse(result);
    expect(data?.probes.map((p) => p.name)).toEqual(['Tip end']);
    const [header, first, second, end] = harmonicResponseCsv(data!).split('\n');
    const columns = header!.split(',');
    expect(columns).toHaveLength(1 + 3 * 3 * 2);
    expect(columns.slice(0, 3)).toEqual(['frequency_hz', 'Tip_end_ux_amp_m', 'Tip_end_ux_phase_deg']);
    expect(columns).toContain('Tip_end_vz_amp_m_s');
    expect(columns.at(-1)).toBe('Tip_end_az_phase_deg');
    const row = (line: string) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], Number(v)]));
    expect(row(first!)).toMatchObject({
      frequency_hz: 100,
      Tip_end_uz_amp_m: 2e-6,
      Tip_end_uz_phase_deg: -20,
    });
    expect(row(second!)).toMatchObject({
      frequency_hz: 200,
      Tip_end_ay_amp_m_s2: 4.7,
      Tip_end_vz_phase_deg: -10,
    });
    expect(end).toBe('');
  });

  it('has nothing to export for a run without probes', () => {
    expect(harmonicResponse({})).toBeNull();
    expect(harmonicResponse({ harmonic_response: { frequencies: [1], probes: [] } })).toBeNull();
  });
});
