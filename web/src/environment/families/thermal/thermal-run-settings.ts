import { isRecord } from '../../../api/http.ts';
import { formatHz, formatSI } from '../../results/quantities.ts';
import { terminalRows } from '../em/em-run-settings.ts';
import type { RunSettingRow } from '../family-module.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** The conditions, Joule heating (with its terminals) and time stepping of a thermal run. */
export function thermalRunSettings(config: Record<string, unknown>): RunSettingRow[] {
  const kinds: [string, string][] = [
    ['temperatureConditions', 'fixed T'],
    ['neumannConditions', 'heat flux'],
    ['convectionConditions', 'convection'],
    ['radiationConditions', 'radiation'],
  ];
  const parts = kinds
    .filter(([k]) => list(config[k]).length > 0)
    .map(([k, label]) => `${list(config[k]).length} ${label}`);
  const rows: RunSettingRow[] = [['Conditions', parts.length ? parts.join(', ') : 'none (insulated)']];
  if (config.jouleHeating === true)
    rows.push(['Joule heating', `on, ${list(config.dirichletFaceConditions).length} terminals`]);
  if (config.inductionHeating === true) {
    const f = num(config.frequency);
    const sources = list(config.coils).length + list(config.solidConductors).length;
    rows.push(['Induction heating', `on${f ? ` at ${formatHz(f)}` : ''}, ${sources} sources`]);
  }
  if (config.analysisType === 'thermal-time') {
    const dt = num(config.timeStep);
    const end = num(config.endTime);
    if (dt && end)
      rows.push([
        'Time',
        `Δt ${formatSI(dt, 's')} to ${formatSI(end, 's')} (${String(config.timeScheme ?? 'newmark')})`,
      ]);
  }
  return [...rows, ...terminalRows(config)];
}
