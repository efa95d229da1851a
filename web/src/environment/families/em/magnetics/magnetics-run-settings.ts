import { isRecord } from '../../../../api/http.ts';
import { formatHz } from '../../../results/quantities.ts';
import type { RunSettingRow } from '../../family-module.ts';

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** The coils (N × I), solid conductors, frequency and added air of a magnetic run. */
export function magneticsRunSettings(config: Record<string, unknown>): RunSettingRow[] {
  const rows: RunSettingRow[] = [];
  const eddy = config.analysisType === 'eddy-current';
  if (eddy && typeof config.frequency === 'number') rows.push(['Frequency', formatHz(config.frequency)]);
  const coils = list(config.coils).map(
    (c) => `${String(c.name)}: ${String(c.turns)} turns × ${String(c.current)} A`,
  );
  if (coils.length) rows.push([coils.length === 1 ? 'Coil' : 'Coils', coils.join('; ')]);
  const solid = list(config.solidConductors).map(
    (s) => `${String(s.name ?? `body ${String(s.region)}`)}: ${String(s.current)} A`,
  );
  if (solid.length) rows.push(['Solid conductors', solid.join('; ')]);
  if (typeof config.airPadding === 'number')
    rows.push(['Added air', config.airPadding === 0 ? 'none' : `${config.airPadding} × model radius`]);
  return rows;
}
