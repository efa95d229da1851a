import type { SParameterSet } from '../../../results/s-parameters.ts';

/**
 * What the port impedances under the S-parameters are. Modal S (wave_port, field_integration) are
 * normalised to each port's own mode; the engine then reports the mode impedances at the middle
 * frequency of the sweep (a TE10 guide's is ~500 Ω and varies with frequency), which must not read as a
 * reference impedance. Renormalised S list their reference.
 */
export function portImpedanceText(data: SParameterSet, format: (ohm: number) => string): string | null {
  const z = data.portImpedances;
  if (!z || z.length === 0) return null;
  const list = z.map(format).join(', ');
  if (data.normalization?.startsWith('modal')) {
    const mid = data.frequencies[Math.floor(data.frequencies.length / 2)];
    const at = mid !== undefined ? ` at ${+(mid / 1e9).toPrecision(4)} GHz` : '';
    const kinds = data.portImpedanceKinds;
    if (kinds?.includes('line') && kinds.length === z.length) {
      // a TEM port's impedance is its line's V/I (≈ 50 Ω), not the TEM wave impedance η/√εr
      const each = z.map((ohm, i) =>
        kinds[i] === 'line' ? `${format(ohm)} (TEM line, V/I)` : `${format(ohm)} (mode, E/H)`,
      );
      return `Modal S-parameters, each port normalised to its own mode (1 W). Port impedances${at}: ${each.join(', ')}.`;
    }
    return `Modal S-parameters, each port normalised to its own mode (1 W). Mode impedances${at}: ${list}.`;
  }
  if (data.normalization?.startsWith('renormalized')) return `Reference impedances: ${list}.`;
  return `Port impedances: ${list}.`;
}
