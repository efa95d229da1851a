import type { AnalysisForm } from '../../../config/analysis-form.ts';
import type { FaceListRole } from '../../family-module.ts';

/** The magnetics face lists marked on the model: open coils' and solid conductors' terminals (loads) and flux
 * boundaries. */
export function magneticsFaceLists(form: AnalysisForm): FaceListRole[] {
  const coilName = (coilKey: string) => form.coils.find((c) => c.key === coilKey)?.name || 'Coil';
  return [
    {
      list: 'coilTerminals',
      toneOf: () => 'load',
      nameOf: (row) => {
        const t = form.coilTerminals.find((r) => r.key === row.key);
        return `${t ? coilName(t.coilKey) : 'Coil'} ${t?.side === 'out' ? 'out' : 'in'}`;
      },
    },
    {
      list: 'conductorTerminals',
      toneOf: () => 'load',
      nameOf: (row) => {
        const t = form.conductorTerminals.find((r) => r.key === row.key);
        const owner = form.solidConductors.find((s) => s.key === t?.conductorKey);
        return `${owner?.name || 'Conductor'} ${t?.side === 'out' ? 'out' : 'in'}`;
      },
    },
    {
      list: 'magneticBoundaries',
      toneOf: () => 'constraint',
      nameOf: (row, i) => {
        const type = form.magneticBoundaries.find((r) => r.key === row.key)?.type;
        return `${type === 'flux-tangent' ? 'Flux-tangent' : 'Flux-normal'} ${i + 1}`;
      },
    },
  ];
}
