import { isRecord } from '../../../api/http.ts';
import type { RunSettingRow } from '../family-module.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** Supports and loads of a structural run: how many, on how many faces. */
export function structuralRunSettings(config: Record<string, unknown>): RunSettingRow[] {
  const faces = (items: Record<string, unknown>[]) =>
    items.reduce((n, c) => n + (Array.isArray(c.faces) ? c.faces.length : 0), 0);
  const supports = [...list(config.fixedSupports), ...list(config.displacementConditions)];
  const forces = list(config.forceLoads);
  const pressures = list(config.pressureLoads);
  const rows: RunSettingRow[] = [
    ['Supports', `${supports.length} on ${faces(supports)} faces`],
    [
      'Loads',
      `${forces.length} force, ${pressures.length} pressure on ${faces([...forces, ...pressures])} faces`,
    ],
  ];
  const g = Array.isArray(config.gravity) ? (config.gravity as unknown[]).map((x) => num(x) ?? 0) : [];
  if (g.some((x) => x !== 0)) rows.push(['Gravity', `[${g.join(', ')}] m/s²`]);
  const thermal = thermalLoadRow(config);
  if (thermal)
    rows.push(thermal, ['Stress-free temperature', `${num(config.referenceTemperature) ?? 293.15} K`]);
  return rows;
}

/** Where a structural run's temperature came from: a uniform value or another job (chained). */
function thermalLoadRow(config: Record<string, unknown>): RunSettingRow | null {
  const uniform = isRecord(config.temperatureLoad) ? num(config.temperatureLoad.uniform) : undefined;
  if (uniform !== undefined) return ['Temperature', `uniform ${uniform} K`];
  const chained = isRecord(config.fieldsFrom) ? config.fieldsFrom : null;
  if (chained && Array.isArray(chained.fields) && chained.fields.includes('temperature'))
    return ['Temperature', `from job ${String(chained.jobId).slice(0, 8)}`];
  return null;
}
