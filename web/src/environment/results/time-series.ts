import { isRecord } from '../../api/http.ts';

/** One chart of signals against time (s), as the results panel draws it and the CSV writes it. */
export interface TimeChart {
  title: string;
  x: number[];
  /** name: legend text; column: the CSV header (snake case with the unit) */
  series: { name: string; column: string; values: number[] }[];
}

const nums = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const vectors = (v: unknown): number[][] =>
  Array.isArray(v) ? v.map((e) => (Array.isArray(e) ? e.map(Number) : [Number(e), 0, 0])) : [];
const magnitude = (e: number[]) => Math.hypot(...e);
const label = (v: unknown, fallback: string) =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : fallback;
const isZero = (values: number[]) => values.every((v) => v === 0);
const snake = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '_');

/**
 * The signals of an em-time result's `time_domain_info` (engine physics/transient/output.py), grouped
 * into charts: voltages and currents of wave ports (coax) and voltage sources, modal amplitudes of ports
 * without a voltage (waveguides), |E| at the probes, and the stored energy (its own time axis).
 */
export function timeCharts(info: Record<string, unknown>): TimeChart[] {
  const times = nums(info.times);
  const voltages: TimeChart['series'] = [];
  const currents: TimeChart['series'] = [];
  const modal: TimeChart['series'] = [];
  for (const port of records(info.ports)) {
    const id = label(port.port_id, '?');
    const col = `port_${snake(id)}`;
    if (Array.isArray(port.voltage)) {
      voltages.push({ name: `Port ${id}`, column: `${col}_voltage_V`, values: nums(port.voltage) });
      const incident = nums(port.incident_voltage);
      if (incident.length > 0 && !isZero(incident))
        voltages.push({ name: `Port ${id} incident`, column: `${col}_incident_voltage_V`, values: incident });
    } else if (Array.isArray(port.modal_amplitude)) {
      modal.push({
        name: `Port ${id}`,
        column: `${col}_modal_amplitude`,
        values: nums(port.modal_amplitude),
      });
    }
    if (Array.isArray(port.current))
      currents.push({ name: `Port ${id}`, column: `${col}_current_A`, values: nums(port.current) });
  }
  for (const source of records(info.voltage_sources)) {
    const name = label(source.label, 'source');
    if (Array.isArray(source.voltage))
      voltages.push({ name, column: `${snake(name)}_voltage_V`, values: nums(source.voltage) });
    if (Array.isArray(source.current))
      currents.push({ name, column: `${snake(name)}_current_A`, values: nums(source.current) });
  }
  const probes = records(info.probes).map((p, i) => {
    const name = label(p.name, `Probe ${i + 1}`);
    return { name, column: `probe_${snake(name)}_E_magnitude_V_per_m`, values: vectors(p.e).map(magnitude) };
  });
  const charts: TimeChart[] = [
    { title: 'Voltages (V)', x: times, series: voltages },
    { title: 'Currents (A)', x: times, series: currents },
    { title: 'Modal amplitudes', x: times, series: modal },
    { title: '|E| at probes (V/m)', x: times, series: probes.filter((s) => s.values.length > 0) },
  ];
  const energy = isRecord(info.energy) ? info.energy : null;
  if (energy)
    charts.push({
      title: 'Stored energy (J)',
      x: nums(energy.times),
      series: (['electric', 'magnetic', 'total'] as const)
        .filter((k) => Array.isArray(energy[k]))
        .map((k) => ({ name: k, column: `energy_${k}_J`, values: nums(energy[k]) })),
    });
  return charts.filter((c) => c.x.length > 1 && c.series.length > 0);
}

/**
 * CSV of all signals on the common time axis (`time_s` first). The energy is written on its own time
 * axis; when it differs from the signals' (long runs are thinned), it follows as a second block.
 */
export function timeSeriesCsv(info: Record<string, unknown>): string {
  const charts = timeCharts(info);
  const blocks = new Map<number[], TimeChart['series']>();
  for (const chart of charts) {
    const same = [...blocks.keys()].find(
      (x) => x.length === chart.x.length && x.every((t, i) => t === chart.x[i]),
    );
    const target = same ?? chart.x;
    blocks.set(target, [...(blocks.get(target) ?? []), ...chart.series]);
  }
  const parts = [...blocks.entries()].map(([x, series]) => {
    const lines = [['time_s', ...series.map((s) => s.column)].join(',')];
    x.forEach((t, i) => {
      lines.push([t, ...series.map((s) => s.values[i] ?? '')].join(','));
    });
    return lines.join('\n');
  });
  return `${parts.join('\n\n')}\n`;
}
