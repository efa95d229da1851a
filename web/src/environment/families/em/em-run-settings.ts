import { isRecord } from '../../../api/http.ts';
import { numberText } from '../../config/analysis-form.ts';
import { formatHz, formatSI } from '../../results/quantities.ts';
import type { RunSettingRow } from '../family-module.ts';
import { magneticsRunSettings } from './magnetics/magnetics-run-settings.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const timeDomain = (config: Record<string, unknown>) =>
  config.analysisType === 'em-time' || (config.analysisType === 'em' && config.transient === true);

/** "Frequency domain (em)", "Static (em, DC)", "Time domain (em-time)", … */
export function emAnalysisLabel(config: Record<string, unknown>): string {
  const type = config.analysisType;
  if (type === 'em-eigen') return 'Eigenmodes (em-eigen)';
  if (type === 'magnetostatic') return 'Magnetostatic (coils, magnets, iron)';
  if (type === 'eddy-current') return 'Eddy currents (time-harmonic)';
  if (timeDomain(config)) return 'Time domain (em-time)';
  if (config.mode === 'fullwave') return 'Full-wave (em, forced)';
  return (num(config.frequency) ?? 0) === 0 ? 'Static (em, DC)' : 'Frequency domain (em)';
}

/** The excitation or frequency, the S-parameter band, the ports and the terminals of an EM run. */
export function emRunSettings(config: Record<string, unknown>): RunSettingRow[] {
  if (config.analysisType === 'magnetostatic' || config.analysisType === 'eddy-current')
    return magneticsRunSettings(config);
  const rows: RunSettingRow[] = [];
  const time = timeDomain(config);
  const ports = list(config.wavePorts);
  const portsOn = config.useWavePorts === true && ports.length > 0;
  if (time) {
    const dt = num(config.timeStep);
    const end = num(config.endTime);
    const pulse = typeof config.pulseShape === 'string' ? config.pulseShape.replace('_', ' ') : 'gaussian';
    const times = dt && end ? `, Δt ${formatSI(dt, 's')} to ${formatSI(end, 's')}` : '';
    rows.push(['Excitation', `${pulse} pulse${times}`]);
  } else if (config.analysisType !== 'em-eigen') {
    rows.push(['Frequency', formatHz(num(config.frequency) ?? 0)]);
  }
  const sweep = config.calculateSParameters === true || config.extractSParameters === true;
  if (portsOn && sweep && !time) rows.push(['S-parameter band', bandText(config)]);
  if (portsOn) rows.push(['Ports', portsText(ports, config, sweep || time)]);
  return [...rows, ...terminalRows(config)];
}

/** The voltage terminals (face groups) of a conduction solve, also the Joule heating of a thermal run. */
export function terminalRows(config: Record<string, unknown>): RunSettingRow[] {
  const terminals = list(config.dirichletFaceConditions);
  return terminals.length > 0 ? [['Terminals', terminalsText(terminals)]] : [];
}

function bandText(config: Record<string, unknown>): string {
  const min = num(config.sParamFreqMin);
  const max = num(config.sParamFreqMax);
  const points = num(config.sParamNumPoints);
  const range =
    min !== undefined && max !== undefined ? `${formatHz(min)} – ${formatHz(max)}` : 'default band';
  const adaptive = config.sParamSweepType === 'adaptive';
  const tol = num(config.sParamAdaptiveTolerance);
  const kind = adaptive ? `adaptive${tol !== undefined ? ` (tol ${numberText(tol)})` : ''}` : 'uniform';
  return `${range}, ${points ?? '?'} points, ${kind}`;
}

function portsText(
  ports: Record<string, unknown>[],
  config: Record<string, unknown>,
  withS: boolean,
): string {
  const z = num(config.portImpedance);
  const each = ports.map(
    (p, i) => `${String(p.portID ?? i + 1)}: ${typeof p.mode === 'string' ? p.mode : '?'}`,
  );
  // portImpedance only matters where S are renormalised from line impedances; modal S ignore it
  const renormalised = config.sParamMethod === 'voltage_current' || config.sParamMethod === 'power_wave';
  const reference = !withS ? '' : renormalised && z ? `, renormalised to ${z} Ω` : ', modal S';
  return `${ports.length} wave port${ports.length === 1 ? '' : 's'} (${each.join(', ')})${reference}`;
}

function terminalsText(groups: Record<string, unknown>[]): string {
  return groups
    .map(
      (g, i) =>
        `${typeof g.name === 'string' && g.name ? g.name : `group ${i + 1}`} ${num(g.voltage) ?? '?'} V`,
    )
    .join(', ');
}
