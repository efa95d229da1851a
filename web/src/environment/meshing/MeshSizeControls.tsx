import { parseNumber } from '../config/numbers.ts';
import { MESH_ALGORITHMS, type MeshAlgorithm, type MeshingOptions } from '../config/to-backend-config.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';

const ALGORITHM_LABELS: Record<MeshAlgorithm, string> = {
  auto: 'Automatic (with fallbacks)',
  hxt: 'gmsh HXT',
  delaunay: 'gmsh Delaunay',
  netgen: 'Netgen',
};

/** Mesh size controls for Generate Volume Mesh; blank sizes are automatic (a 20th of the diagonal). */
export function MeshSizeControls() {
  const { store } = useServices();
  const options = useEnv((s) => s.meshing.options);
  const units = useEnv((s) => s.model?.mesh.units ?? 'm');
  const set = (patch: Partial<MeshingOptions>) =>
    store.set((s) => ({ meshing: { ...s.meshing, options: { ...s.meshing.options, ...patch } } }));
  return (
    <details className="mesh-options">
      <summary>Mesh size and mesher</summary>
      <div className="row2">
        <label className="field">
          <span>Max element size ({units})</span>
          <input
            placeholder="auto"
            defaultValue={options.maxElementSize ?? ''}
            onChange={(e) => set({ maxElementSize: parseNumber(e.target.value) })}
            data-testid="mesh-max-size"
          />
        </label>
        <label className="field">
          <span>Min element size ({units})</span>
          <input
            placeholder="auto"
            defaultValue={options.minElementSize ?? ''}
            onChange={(e) => set({ minElementSize: parseNumber(e.target.value) })}
          />
        </label>
        <label className="field">
          <span>Elements per circle</span>
          <input
            placeholder="12"
            inputMode="numeric"
            defaultValue={options.elementsPerCircle ?? ''}
            onChange={(e) => set({ elementsPerCircle: parseNumber(e.target.value) })}
          />
        </label>
        <label className="field">
          <span>Surface repair</span>
          <select
            value={options.repair ?? 'safe'}
            onChange={(e) => set({ repair: e.target.value === 'none' ? 'none' : 'safe' })}
          >
            <option value="safe">Safe repairs</option>
            <option value="none">None</option>
          </select>
        </label>
      </div>
      <div className="row2">
        <label className="field">
          <span>Grading (0–1)</span>
          <input
            placeholder="0.3"
            defaultValue={options.grading ?? ''}
            onChange={(e) => set({ grading: parseNumber(e.target.value) })}
          />
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={options.curvatureRefinement !== false}
            onChange={(e) => set({ curvatureRefinement: e.target.checked })}
          />
          <span>Refine on curvature</span>
        </label>
      </div>
      <label className="field">
        <span>Mesher</span>
        <select
          value={options.algorithm ?? 'auto'}
          onChange={(e) => set({ algorithm: e.target.value as MeshAlgorithm })}
        >
          {MESH_ALGORITHMS.map((a) => (
            <option key={a} value={a}>
              {ALGORITHM_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
    </details>
  );
}
