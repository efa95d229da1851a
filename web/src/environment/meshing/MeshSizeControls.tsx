import { useId } from 'react';
import { parseNumber } from '../config/numbers.ts';
import { MESH_ALGORITHMS, type MeshAlgorithm, type MeshingOptions } from '../config/to-backend-config.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { studyConfigOf } from '../studies/study-config.ts';
import { SweepActionProvider } from '../studies/sweep-action.tsx';
import { SweepButton } from '../ui/fields.tsx';

const ALGORITHM_LABELS: Record<MeshAlgorithm, string> = {
  auto: 'Automatic (with fallbacks)',
  hxt: 'gmsh HXT',
  delaunay: 'gmsh Delaunay',
  netgen: 'Netgen',
};

/**
 * Mesh size controls for Generate Volume Mesh; blank sizes are automatic (a 20th of the diagonal). Once a
 * volume mesh exists they stay (`forStudies`) as the settings a design study's points mesh with, each
 * number with a Sweep (a `meshMaxSize` parameter meshes every point from the upload first).
 */
export function MeshSizeControls(props: { forStudies?: boolean }) {
  const controls = <MeshSizeInputs forStudies={props.forStudies ?? false} />;
  return props.forStudies ? (
    <SweepActionProvider config={studyConfigOf}>{controls}</SweepActionProvider>
  ) : (
    controls
  );
}

/** A numeric mesh setting: its label, its Sweep where one is provided, its input (blank = automatic). */
function SizeField(props: {
  label: string;
  value: number | undefined;
  set: (value: number | undefined) => void;
  placeholder: string;
  testId: string;
  numeric?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <span>
        <label htmlFor={id}>{props.label}</label>{' '}
        <SweepButton
          label={props.label}
          text={props.value === undefined ? '' : String(props.value)}
          probe={(t) => props.set(parseNumber(t))}
          testId={`${props.testId}-sweep`}
        />
      </span>
      <input
        id={id}
        placeholder={props.placeholder}
        inputMode={props.numeric ? 'numeric' : 'decimal'}
        defaultValue={props.value ?? ''}
        onChange={(e) => props.set(parseNumber(e.target.value))}
        data-testid={props.testId}
      />
    </div>
  );
}

function MeshSizeInputs(props: { forStudies: boolean }) {
  const { store } = useServices();
  const options = useEnv((s) => s.meshing.options);
  const units = useEnv((s) => s.model?.mesh.units ?? 'm');
  const set = (patch: Partial<MeshingOptions>) =>
    store.set((s) => ({ meshing: { ...s.meshing, options: { ...s.meshing.options, ...patch } } }));
  return (
    <details className="mesh-options">
      <summary>
        {props.forStudies ? 'Mesh settings for studies that re-mesh' : 'Mesh size and mesher'}
      </summary>
      {props.forStudies && (
        <p className="muted small">
          A design study that sweeps a mesh setting meshes each point from the upload with these settings.
        </p>
      )}
      <div className="row2">
        <SizeField
          label={`Max element size (${units})`}
          value={options.maxElementSize}
          set={(v) => set({ maxElementSize: v })}
          placeholder="auto"
          testId="mesh-max-size"
        />
        <SizeField
          label={`Min element size (${units})`}
          value={options.minElementSize}
          set={(v) => set({ minElementSize: v })}
          placeholder="auto"
          testId="mesh-min-size"
        />
        <SizeField
          label="Elements per circle"
          value={options.elementsPerCircle}
          set={(v) => set({ elementsPerCircle: v })}
          placeholder="12"
          testId="mesh-per-circle"
          numeric
        />
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
        <SizeField
          label="Grading (0–1)"
          value={options.grading}
          set={(v) => set({ grading: v })}
          placeholder="0.3"
          testId="mesh-grading"
        />
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
