import { LENGTH_UNITS } from '@fieldline/contracts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import type { LengthUnit } from '../state/environment-state.ts';
import { setModelUnits } from '../workflows/load-file.ts';

const UNIT_LABELS: Record<LengthUnit, string> = {
  mm: 'mm',
  cm: 'cm',
  m: 'm',
  in: 'inch',
  um: 'µm',
  ft: 'ft',
};

/** The model's size, and (STL/OBJ, which carry no unit) the unit picker shown before meshing. */
export function UnitsPicker() {
  const { deps } = useServices();
  const model = useEnv((s) => s.model);
  const meshed = useEnv((s) => s.meshing.status === 'completed');
  if (!model) return null;
  const unit = (model.mesh.units ?? 'm') as LengthUnit;
  const size = modelSize(model.boundingBox, model.mesh.vertices);
  return (
    <div className="units" data-testid="units">
      <span className="muted small">Size</span>
      <span data-testid="model-size">
        {size ? size.map((v) => +v.toPrecision(4)).join(' × ') : '—'} {UNIT_LABELS[unit] ?? unit}
      </span>
      {model.unitsEditable && !meshed && (
        <select
          aria-label="Model units"
          data-testid="units-select"
          value={unit}
          onChange={(e) => setModelUnits(e.target.value as LengthUnit, deps)}
        >
          {LENGTH_UNITS.map((u) => (
            <option key={u} value={u}>
              {UNIT_LABELS[u]}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

export function modelSize(
  box: { min: number[]; max: number[] } | undefined,
  vertices: ReadonlyArray<ReadonlyArray<number>>,
): [number, number, number] | null {
  if (box) return [0, 1, 2].map((i) => (box.max[i] ?? 0) - (box.min[i] ?? 0)) as [number, number, number];
  if (vertices.length === 0) return null;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices)
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i]!, v[i] ?? 0);
      max[i] = Math.max(max[i]!, v[i] ?? 0);
    }
  return [0, 1, 2].map((i) => max[i]! - min[i]!) as [number, number, number];
}
