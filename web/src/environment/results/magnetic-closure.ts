import { isRecord } from '../../api/http.ts';

/**
 * Whether a result's "Magnetic energy" comes from a model with no insulating (air) region: every body
 * conducts. The engine closes the magnetic problem with n×A = 0 on the model's outer boundary
 * (docs/em-static.md), so without air around the conductor the energy is that of a conductor inside a
 * closed conducting shell carrying its return current, not a free-space inductance (qa29: 3.216 J for a bar
 * at 58 kA, shown without that caveat). The bodies' conductivities are read from the config the job ran
 * with, resolved as the engine does (em/materials.py: default, then bodyMaterials, then anisotropic);
 * false when the result does not say enough to tell.
 */
export function magneticEnergyNeedsAir(
  result: Record<string, unknown>,
  config: Record<string, unknown> | null,
): boolean {
  const quantities = isRecord(result.quantities) ? result.quantities : result;
  if (typeof quantities.magnetic_energy_J !== 'number' || !config) return false;
  const names = Array.isArray(result.region_names) ? result.region_names.map(String) : [];
  let count = Math.max(names.length, 1); // a mesh without region names is one body
  if (Array.isArray(result.tetrahedron_regions)) {
    // a loop, not Math.max(...): a large mesh has millions of entries
    for (const r of result.tetrahedron_regions) if (typeof r === 'number' && r >= count) count = r + 1;
  }
  const sigma: number[] = Array.from({ length: count }, () => num(config.defaultConductivity) ?? 0);
  const indexOf = (ref: unknown): number => {
    if (typeof ref === 'number' || (typeof ref === 'string' && /^\d+$/.test(ref))) return Number(ref);
    return typeof ref === 'string' ? names.indexOf(ref) : -1;
  };
  for (const entry of Array.isArray(config.bodyMaterials) ? config.bodyMaterials : []) {
    if (!isRecord(entry)) continue;
    const i = indexOf(entry.region);
    if (i >= 0 && i < count) sigma[i] = num(entry.conductivity) ?? 0;
  }
  if (config.useAnisotropicMaterials === true) {
    for (const entry of Array.isArray(config.anisotropicMaterials) ? config.anisotropicMaterials : []) {
      if (!isRecord(entry)) continue;
      const i = indexOf(entry.id);
      const triple = Array.isArray(entry.conductivity) ? entry.conductivity.map(num) : [0, 0, 0];
      if (i >= 0 && i < count) sigma[i] = Math.max(...triple.map((s) => s ?? 0));
    }
  }
  return sigma.every((s) => s > 0);
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
