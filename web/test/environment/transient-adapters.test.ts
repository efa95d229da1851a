import { describe, expect, it } from 'vitest';
import { timeDomainSummary } from '../../src/environment/families/em/results/time-domain-summary.ts';
import { frequencyResponseCsv } from '../../src/environment/results/frequency-response-csv.ts';
import { magnitudeDb } from '../../src/environment/results/s-parameters.ts';
import { timeCharts, timeSeriesCsv } from '../../src/environment/results/time-series.ts';
import { transientResponse } from '../../src/environment/results/transient-response.ts';
import coax from './fixtures/transient-coax.json';
import gap from './fixtures/transient-gap.json';
import waveguide from './fixtures/transient-waveguide.json';

// Fixtures: real em-time results from the engine (fixtures/make_transient_fixtures.py), mesh trimmed.
const C0 = 299_792_458;

describe('transientResponse (time_domain_info.frequency_response → S-parameter set)', () => {
  it('reads the driven port column of a matched 2-port coax as S11, S21 over the pulse band', () => {
    const r = transientResponse(coax);
    const raw = coax.time_domain_info.frequency_response;
    expect(r?.frequencies).toEqual(raw.frequencies);
    expect(r?.bandHz).toEqual(raw.band_hz);
    expect(r?.drivenPort).toBe('1');
    expect(r?.inputImpedances).toEqual([]);
    const series = r?.sParameters?.series ?? [];
    expect(series.map((s) => s.name)).toEqual(['S11', 'S21']);
    const s21 = series[1];
    expect(s21?.re).toEqual(raw.s_parameters.column.S21.map((p) => p[0]));
    expect(s21?.im).toEqual(raw.s_parameters.column.S21.map((p) => p[1]));
    // A matched line: almost everything goes through, little comes back.
    const db = (k: number) => series.map((s) => magnitudeDb(s.re[k] ?? 0, s.im[k] ?? 0));
    for (let k = 0; k < raw.frequencies.length; k++) {
      const [s11, s21db] = db(k);
      expect(s11).toBeLessThan(-15);
      expect(s21db).toBeGreaterThan(-1.5);
    }
  });

  it('reads a voltage source as S11 against its resistance and Z_in = jZ0·tan(βL) of the shorted line', () => {
    const r = transientResponse(gap);
    const src = gap.time_domain_info.frequency_response.voltage_sources[0];
    expect(r?.sParameters?.series.map((s) => s.name)).toEqual(['S11']);
    expect(r?.sParameters?.portImpedances).toEqual([src?.reference_impedance_ohm]);
    expect(r?.drivenPort).toBeNull();
    const z = r?.inputImpedances[0];
    expect(z?.label).toBe('gap_0');
    expect(z?.re).toHaveLength(r?.frequencies.length ?? -1);
    // Parallel plates 10 × 5 mm, 20 mm long, shorted: Z0 = η0·d/w, the source matched (R = Z0).
    const z0 = src?.reference_impedance_ohm ?? 0;
    let worst = 0;
    r?.frequencies.slice(0, 10).forEach((f, i) => {
      const exact = z0 * Math.tan(((2 * Math.PI * f) / C0) * 0.02);
      worst = Math.max(worst, Math.abs((z?.im[i] ?? 0) - exact) / exact);
    });
    console.log(
      `Z_in of the shorted plates below 2.8 GHz: worst relative error ${(worst * 100).toFixed(2)} %`,
    );
    expect(worst).toBeLessThan(0.05);
  });

  it('reports the TE10 ports’ mismatch off the carrier', () => {
    const r = transientResponse(waveguide);
    expect(r?.sParameters?.series.map((s) => s.name)).toEqual(['S11', 'S21']);
    expect(r?.portMismatch).toEqual([
      { portId: '1', maxReflection: 0.28931 },
      { portId: '2', maxReflection: 0.28931 },
    ]);
    expect(transientResponse(coax)?.portMismatch).toEqual([]);
  });

  it('names each source S11 when there are several, and is null without a frequency response', () => {
    const src = gap.time_domain_info.frequency_response.voltage_sources[0];
    const two = {
      time_domain_info: {
        frequency_response: {
          frequencies: [1e9, 2e9],
          voltage_sources: [
            {
              ...src,
              label: 'a',
              s11: [
                [0.1, 0],
                [0.2, 0],
              ],
            },
            {
              ...src,
              label: 'b',
              s11: [
                [0.3, 0],
                [0.4, 0],
              ],
            },
          ],
        },
      },
    };
    expect(transientResponse(two)?.sParameters?.series.map((s) => s.name)).toEqual(['S11 · a', 'S11 · b']);
    const { frequency_response: _, ...sinusoidal } = gap.time_domain_info;
    expect(transientResponse({ time_domain_info: sinusoidal })).toBeNull();
    expect(transientResponse({ solver_info: {} })).toBeNull();
  });
});

describe('timeCharts and the time-series CSV', () => {
  it('groups port voltages (with the driven port’s incident wave), currents, probes and energy', () => {
    const charts = timeCharts(coax.time_domain_info);
    expect(charts.map((c) => c.title)).toEqual([
      'Voltages (V)',
      'Currents (A)',
      '|E| at probes (V/m)',
      'Stored energy (J)',
    ]);
    const [volts, amps, probes, energy] = charts;
    // Port 2 is a matched load: its incident wave is zero and left out.
    expect(volts?.series.map((s) => s.name)).toEqual(['Port 1', 'Port 1 incident', 'Port 2']);
    expect(volts?.series[2]?.values).toEqual(coax.time_domain_info.ports[1]?.voltage);
    expect(amps?.series.map((s) => s.name)).toEqual(['Port 1', 'Port 2']);
    const e = coax.time_domain_info.probes[0]?.e[40] ?? [];
    expect(probes?.series[0]?.values[40]).toBeCloseTo(Math.hypot(...e), 12);
    expect(energy?.series.map((s) => s.name)).toEqual(['electric', 'magnetic', 'total']);
    expect(timeCharts(gap.time_domain_info)[0]?.series.map((s) => s.name)).toEqual(['gap_0']);
  });

  it('shows ports without a modal voltage (eigen-solved modes) as modal amplitudes', () => {
    const ports = waveguide.time_domain_info.ports.map(({ voltage: _v, incident_voltage: _i, ...p }) => p);
    const charts = timeCharts({ ...waveguide.time_domain_info, ports });
    expect(charts.map((c) => c.title)).toEqual([
      'Modal amplitudes',
      '|E| at probes (V/m)',
      'Stored energy (J)',
    ]);
    expect(charts[0]?.series.map((s) => s.name)).toEqual(['Port 1', 'Port 2']);
    expect(charts[0]?.series[1]?.values).toEqual(waveguide.time_domain_info.ports[1]?.modal_amplitude);
  });

  it('writes every signal against time_s, one row per sample', () => {
    const csv = timeSeriesCsv(coax.time_domain_info).trimEnd().split('\n');
    const times = coax.time_domain_info.times;
    expect(csv).toHaveLength(times.length + 1);
    const header = csv[0]?.split(',') ?? [];
    expect(header).toEqual([
      'time_s',
      'port_1_voltage_V',
      'port_1_incident_voltage_V',
      'port_2_voltage_V',
      'port_1_current_A',
      'port_2_current_A',
      'probe_mid_E_magnitude_V_per_m',
      'energy_electric_J',
      'energy_magnetic_J',
      'energy_total_J',
    ]);
    const row = csv[41]?.split(',').map(Number) ?? [];
    expect(row[0]).toBe(times[40]);
    expect(row[4]).toBe(coax.time_domain_info.ports[0]?.current[40]);
    expect(row[9]).toBe(coax.time_domain_info.energy.total[40]);
  });

  it('writes the energy as its own block when thinned signals have another time axis', () => {
    const info = {
      ...coax.time_domain_info,
      times: coax.time_domain_info.times.filter((_, i) => i % 2 === 0),
    };
    info.ports = info.ports.map((p) => ({ ...p, voltage: p.voltage.filter((_, i) => i % 2 === 0) }));
    const blocks = timeSeriesCsv(info).trimEnd().split('\n\n');
    expect(blocks).toHaveLength(2);
    expect(blocks[1]?.split('\n')[0]).toBe('time_s,energy_electric_J,energy_magnetic_J,energy_total_J');
    expect(blocks[1]?.split('\n')).toHaveLength(coax.time_domain_info.energy.times.length + 1);
  });
});

describe('frequencyResponseCsv', () => {
  it('writes re, im, dB and degrees per S-parameter, then Z_in', () => {
    const response = transientResponse(gap);
    if (!response) throw new Error('no response');
    const lines = frequencyResponseCsv(response).trimEnd().split('\n');
    expect(lines[0]).toBe('frequency_hz,S11_re,S11_im,S11_db,S11_deg,Zin_gap_0_re_ohm,Zin_gap_0_im_ohm');
    expect(lines).toHaveLength(response.frequencies.length + 1);
    const [f, re, im, db, deg, zr, zi] = lines[1]?.split(',').map(Number) ?? [];
    const src = gap.time_domain_info.frequency_response.voltage_sources[0];
    expect([f, re, im, zr, zi]).toEqual([
      response.frequencies[0],
      src?.s11[0]?.[0],
      src?.s11[0]?.[1],
      src?.input_impedance_ohm[0]?.[0],
      src?.input_impedance_ohm[0]?.[1],
    ]);
    expect(db).toBeCloseTo(20 * Math.log10(Math.hypot(re ?? 0, im ?? 0)), 9);
    expect(deg).toBeCloseTo((Math.atan2(im ?? 0, re ?? 0) * 180) / Math.PI, 9);
  });
});

describe('timeDomainSummary', () => {
  it('describes steps, scheme, pulse, sources and speed', () => {
    const rows = new Map(timeDomainSummary(waveguide.time_domain_info));
    expect(rows.get('Time steps')).toBe('350 × 10 ps · newmark');
    expect(rows.get('Excitation')).toBe('Modulated Gaussian, at 10 GHz, width 300 ps, delay 1.5 ns');
    expect(rows.get('Sources')).toBe('port 1');
    expect(rows.get('Stepping speed')).toMatch(/ steps\/s$/);
    expect(new Map(timeDomainSummary(coax.time_domain_info)).get('Excitation')).toBe(
      'Gaussian pulse, width 30 ps, delay 150 ps',
    );
  });

  it('gives the explicit scheme’s stable step', () => {
    const stability = {
      largest_eigenvalue: 2.5e23,
      omega_max_rad_per_s: 5e11,
      critical_time_step_s: 4e-12,
      lanczos_matvecs: 41,
    };
    const rows = new Map(timeDomainSummary({ ...coax.time_domain_info, scheme: 'explicit', stability }));
    expect(rows.get('Stable step (explicit)')).toBe('< 4 ps');
    expect(rows.get('Time steps')).toBe('80 × 5 ps · explicit');
  });
});
