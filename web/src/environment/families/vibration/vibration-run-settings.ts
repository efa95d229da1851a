import { formatSI } from '../../results/quantities.ts';
import type { RunSettingRow } from '../family-module.ts';
import { structuralRunSettings } from '../structural/structural-run-settings.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Modes, supports and, for a harmonic run, the band, damping and loads. */
export function vibrationRunSettings(config: Record<string, unknown>): RunSettingRow[] {
  const modes = num(config.modalNumModes);
  const from = num(config.modalMinFrequency);
  const harmonic = config.analysisType === 'harmonic';
  const rows: RunSettingRow[] = [['Modes', `${modes ?? '?'}${from ? ` from ${formatSI(from, 'Hz')}` : ''}`]];
  if (harmonic) {
    const lo = num(config.harmonicFreqMin) ?? 0;
    const hi = num(config.harmonicFreqMax);
    const points = num(config.harmonicNumPoints);
    const band = hi !== undefined ? `${formatSI(lo, 'Hz')} – ${formatSI(hi, 'Hz')}` : 'default band';
    rows.push(['Band', `${band}, ${points ?? '?'} points`]);
    const method = config.harmonicMethod === 'full' ? 'full direct solves' : 'mode superposition';
    rows.push(['Damping', `ζ = ${num(config.dampingRatio) ?? 0.02}, ${method}`]);
  }
  const all = structuralRunSettings(config);
  return [...rows, ...(harmonic ? all : all.filter(([label]) => label === 'Supports'))];
}
