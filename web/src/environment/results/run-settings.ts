import { isRecord } from '../../api/http.ts';
import { numberText } from '../config/analysis-form.ts';
import { formatHz, formatSI } from './quantities.ts';

/** One line of the "Run settings" summary: a label and what the run used. */
export type RunSettingRow = [label: string, value: string];

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/**
 * What produced a result, at a glance (from results.json `analysis_config`, the backend config the engine
 * received): analysis type, frequency or band, ports / terminals, mesh order and solver.
 */
export function runSettingsSummary(config: Record<string, unknown>): RunSettingRow[] {
  const rows: RunSettingRow[] = [];
  const type = config.analysisType;
  const timeDomain = type === 'em-time' || (type === 'em' && config.transient === true);
  const frequency = num(config.frequency) ?? 0;
  const ports = list(config.wavePorts);
  const portsOn = config.useWavePorts === true && ports.length > 0;

  rows.push(['Analysis', analysisLabel(type, timeDomain, config.mode, frequency)]);
  if (type === 'structural') {
    rows.push(...structuralRows(config));
  } else if (type === 'thermal' || type === 'thermal-time') {
    rows.push(...thermalRows(config));
  } else if (type === 'modal' || type === 'harmonic') {
    rows.push(...vibrationRows(config));
  } else if (timeDomain) {
    const dt = num(config.timeStep);
    const end = num(config.endTime);
    const pulse = typeof config.pulseShape === 'string' ? config.pulseShape.replace('_', ' ') : 'gaussian';
    const times = dt && end ? `, Δt ${formatSI(dt, 's')} to ${formatSI(end, 's')}` : '';
    rows.push(['Excitation', `${pulse} pulse${times}`]);
  } else if (type !== 'em-eigen') {
    rows.push(['Frequency', formatHz(frequency)]);
  }
  const sweep = config.calculateSParameters === true || config.extractSParameters === true;
  if (portsOn && sweep && !timeDomain) rows.push(['S-parameter band', bandText(config)]);
  if (portsOn) rows.push(['Ports', portsText(ports, config, sweep || timeDomain)]);
  const terminals = list(config.dirichletFaceConditions);
  if (terminals.length > 0) rows.push(['Terminals', terminalsText(terminals)]);
  const order = num(config.meshOrder) ?? 1;
  const curved = config.useCurvedMesh === true || config.useCurvedGeometry === true;
  rows.push(['Mesh order', `${order}${curved ? ', curved' : ''}`]);
  rows.push(['Solver', solverText(config)]);
  return rows;
}

function analysisLabel(type: unknown, timeDomain: boolean, mode: unknown, frequency: number): string {
  if (type === 'em-eigen') return 'Eigenmodes (em-eigen)';
  if (type === 'structural') return 'Linear static (structural)';
  if (type === 'thermal') return 'Steady heat conduction (thermal)';
  if (type === 'thermal-time') return 'Transient heat conduction (thermal-time)';
  if (type === 'modal') return 'Natural frequencies (modal)';
  if (type === 'harmonic') return 'Harmonic response (harmonic)';
  if (timeDomain) return 'Time domain (em-time)';
  if (mode === 'fullwave') return 'Full-wave (em, forced)';
  if (type === 'em') return frequency === 0 ? 'Static (em, DC)' : 'Frequency domain (em)';
  return typeof type === 'string' ? type : 'unknown';
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

function solverText(config: Record<string, unknown>): string {
  const solver = typeof config.linearSolver === 'string' ? config.linearSolver : 'auto';
  const tol = num(config.tolerance);
  return tol !== undefined && solver !== 'direct' ? `${solver}, tolerance ${numberText(tol)}` : solver;
}

/** Modes, supports and, for a harmonic run, the band, damping and loads. */
function vibrationRows(config: Record<string, unknown>): RunSettingRow[] {
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
  const all = structuralRows(config);
  return [...rows, ...(harmonic ? all : all.filter(([label]) => label === 'Supports'))];
}

/** Supports and loads of a structural run: how many, on how many faces. */
function structuralRows(config: Record<string, unknown>): RunSettingRow[] {
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
  return rows;
}

/** The conditions, Joule heating and time stepping of a thermal run. */
function thermalRows(config: Record<string, unknown>): RunSettingRow[] {
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
  if (config.analysisType === 'thermal-time') {
    const dt = num(config.timeStep);
    const end = num(config.endTime);
    if (dt && end)
      rows.push([
        'Time',
        `Δt ${formatSI(dt, 's')} to ${formatSI(end, 's')} (${String(config.timeScheme ?? 'newmark')})`,
      ]);
  }
  return rows;
}
