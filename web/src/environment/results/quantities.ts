import { isRecord } from '../../api/http.ts';

export interface Quantity {
  key: string;
  label: string;
  value: number | number[] | Record<string, number>;
  unit: string;
}

/** Known result quantities: the key's suffix names its SI unit (engine writes e.g. capacitance_F). */
const UNIT_SUFFIXES: [RegExp, string][] = [
  [/_V_per_m$/, 'V/m'],
  [/_F$/, 'F'],
  [/_J$/, 'J'],
  [/_C$/, 'C'],
  [/_(ohm|Ohm)$/, 'Ω'],
  [/_H$/, 'H'],
  [/_Wb$/, 'Wb'],
  [/_Nm$/, 'N·m'],
  [/_S$/, 'S'],
  [/_W$/, 'W'],
  [/_A$/, 'A'],
  [/_V$/, 'V'],
  [/_Hz$/, 'Hz'],
  [/_s$/, 's'],
  [/_kg$/, 'kg'],
  [/_Pa$/, 'Pa'],
  [/_N$/, 'N'],
  [/_K$/, 'K'],
  [/_m$/, 'm'],
];
/** Quantities a dedicated panel shows (the structural reaction table). */
const SHOWN_ELSEWHERE = new Set([
  'applied_load_N',
  'total_reaction_N',
  'reaction_balance_error',
  'source_power_W',
  'energy_balance_error',
]);

const PREFERRED_ORDER = [
  'capacitance',
  'resistance',
  'conductance',
  'inductance',
  'impedance',
  'stored_energy',
  'first_frequency',
  'peak_frequency',
  'max_temperature',
  'min_temperature',
  'max_von_mises',
  'safety_factor',
  'max_displacement',
];

function labelOf(key: string): string {
  const base = key
    .replace(/_(V_per_m|F|J|C|ohm|Ohm|H|Wb|Nm|S|W|A|V|Hz|s|kg|Pa|N|K|m)$/, '')
    .replace(/_/g, ' ')
    .replace(/\b([Vv])on mises\b/, '$1on Mises');
  return base.charAt(0).toUpperCase() + base.slice(1);
}
/** `max_von_mises_location` and the like: a point [x, y, z] in the model's length unit. */
export const isLocation = (key: string) => key.endsWith('_location');

function unitOf(key: string, lengthUnit: string): string {
  if (isLocation(key)) return lengthUnit;
  for (const [re, unit] of UNIT_SUFFIXES) if (re.test(key)) return unit;
  // fractions (effective mass): shown as percent, never "5.593e-14"
  if (/fraction/i.test(key)) return '%';
  if (/capacitance/i.test(key)) return 'F';
  if (/resistance|impedance/i.test(key)) return 'Ω';
  if (/inductance/i.test(key)) return 'H';
  return '';
}
const isNumberMap = (v: unknown): v is Record<string, number> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'number');

/**
 * A harmonic run's peak is read at its probes, not over the model (vibration/analysis.py): the label says so,
 * with the probe's name when there is one (qa31: "Peak displacement 801 nm" at a probe by the supports read as
 * the bracket's response, whose legend went to 469 µm).
 */
function probeLabel(key: string, result: Record<string, unknown>): string | null {
  if (key === 'resonance_frequency_Hz') return ringingLabel(result);
  if (key === 'peak_electric_field_V_per_m') return 'Peak |E| at the probes';
  if (key !== 'peak_displacement_m' && key !== 'peak_frequency_Hz') return null;
  const response = isRecord(result.harmonic_response) ? result.harmonic_response : null;
  const names = Array.isArray(response?.probes)
    ? response.probes.map((p) => (isRecord(p) && typeof p.name === 'string' ? p.name : '')).filter(Boolean)
    : [];
  const where = names.length === 1 ? `probe ${names[0]}` : 'the probes';
  return key === 'peak_displacement_m' ? `Peak displacement at ${where}` : `Peak frequency at ${where}`;
}

/** A time-domain run's ringing frequency is read at its first probe (docs/transient.md): the label names it. */
function ringingLabel(result: Record<string, unknown>): string {
  const info = isRecord(result.time_domain_info) ? result.time_domain_info : null;
  const resonances = isRecord(info?.resonances) ? info.resonances : null;
  const first = Array.isArray(resonances?.probes) ? resonances.probes[0] : null;
  return isRecord(first) && typeof first.probe === 'string'
    ? `Ringing frequency at probe ${first.probe}`
    : 'Ringing frequency at the first probe';
}

/** Key quantities (capacitance, resistance, energy, charges …) from `quantities` or top-level keys. */
export function extractQuantities(result: Record<string, unknown>): Quantity[] {
  const source: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(result).filter(([k]) => /^(capacitance|resistance|inductance|conductance)/i.test(k)),
    ),
    ...(isRecord(result.quantities) ? result.quantities : {}),
  };
  const lengthUnit = typeof result.length_unit === 'string' ? result.length_unit : '';
  const out: Quantity[] = [];
  for (const [key, value] of Object.entries(source)) {
    if (SHOWN_ELSEWHERE.has(key)) continue;
    if (typeof value === 'number' || (Array.isArray(value) && value.every((x) => typeof x === 'number'))) {
      out.push({ key, label: probeLabel(key, result) ?? labelOf(key), value, unit: unitOf(key, lengthUnit) });
    } else if (isNumberMap(value)) {
      out.push({ key, label: labelOf(key), value, unit: unitOf(key, lengthUnit) });
    }
  }
  const rank = (q: Quantity) => {
    const i = PREFERRED_ORDER.findIndex((p) => q.key.toLowerCase().startsWith(p));
    return i === -1 ? PREFERRED_ORDER.length : i;
  };
  return out.sort((a, b) => rank(a) - rank(b));
}

const PREFIXES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
  [1, ''],
  [1e-3, 'm'],
  [1e-6, 'µ'],
  [1e-9, 'n'],
  [1e-12, 'p'],
  [1e-15, 'f'],
  [1e-18, 'a'],
];

/** 1.234e-12 F → "1.234 pF"; unitless numbers in plain or exponent form; a fraction (unit '%') as percent. */
export function formatSI(value: number, unit: string, digits = 4): string {
  if (!Number.isFinite(value)) return `${value} ${unit}`.trim();
  if (unit === '%') return `${(value * 100).toFixed(1)} %`;
  if (value === 0) return `0 ${unit}`.trim();
  // the kilogram already carries a prefix: 0.157 kg, not "157 mkg"; grams and below from the gram
  if (unit === 'kg') {
    const abs = Math.abs(value);
    if (abs >= 1e-3 && abs < 1e6) return `${+value.toPrecision(digits)} kg`;
    return formatSI(value * 1e3, 'g', digits);
  }
  if (!unit)
    return Math.abs(value) >= 1e-3 && Math.abs(value) < 1e6
      ? String(+value.toPrecision(digits))
      : value.toExponential(digits - 1);
  const abs = Math.abs(value);
  const [scale, prefix] = PREFIXES.find(([s]) => abs >= s * 0.9995) ?? PREFIXES[PREFIXES.length - 1]!;
  return `${+(value / scale).toPrecision(digits)} ${prefix}${unit}`;
}

/** A quantity's value as the results panel prints it. */
export function quantityText(q: Quantity): string {
  // Temperatures: kelvin as computed and °C beside, never an SI-prefixed "kK".
  if (typeof q.value === 'number' && q.unit === 'K')
    return `${q.value.toFixed(2)} K (${(q.value - 273.15).toFixed(2)} °C)`;
  // a point in model units: plain coordinates and the unit once, never SI-prefixed ("49 mmm")
  if (isLocation(q.key) && Array.isArray(q.value))
    return `${q.value.map((v) => +v.toPrecision(4)).join(', ')}${q.unit ? ` ${q.unit}` : ''}`;
  if (typeof q.value === 'number') return formatSI(q.value, q.unit);
  if (Array.isArray(q.value)) return q.value.map((v) => formatSI(v, q.unit)).join(', ');
  return '';
}

export function formatHz(hz: number): string {
  return hz === 0 ? 'DC' : formatSI(hz, 'Hz');
}
