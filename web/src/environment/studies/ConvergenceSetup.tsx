import { CONVERGENCE_MAX_POINTS } from '@fieldline/contracts';
import { type ConvergenceForm, convergenceSizes } from './convergence-setup.ts';

const fmt = (v: number) => String(Number(v.toPrecision(4)));

/** The convergence study's settings: the output, when it has converged, and the meshes to try. */
export function ConvergenceSetup(props: {
  value: ConvergenceForm;
  onChange: (v: ConvergenceForm) => void;
  outputs: string[];
  units: string;
  curvatureRefinement: boolean;
}) {
  const { value: v, onChange } = props;
  const patch = (p: Partial<ConvergenceForm>) => onChange({ ...v, ...p });
  const num = (
    label: string,
    key: keyof ConvergenceForm,
    testId: string,
    extra: { min?: number; max?: number; step?: number } = {},
  ) => (
    <label className="study-field">
      {label}{' '}
      <input
        type="number"
        data-testid={testId}
        value={v[key]}
        {...extra}
        onChange={(e) => patch({ [key]: Number(e.target.value) } as Partial<ConvergenceForm>)}
      />
    </label>
  );
  return (
    <div data-testid="study-convergence-setup">
      <label className="study-field">
        Output{' '}
        <select
          value={v.output}
          data-testid="study-convergence-output"
          onChange={(e) => patch({ output: e.target.value })}
        >
          {props.outputs.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
      {num('Converged when it changes by less than (%)', 'tolerancePercent', 'study-convergence-tolerance', {
        min: 0.001,
        max: 99,
        step: 0.1,
      })}
      {num(`First mesh's element size (${props.units})`, 'startSize', 'study-convergence-start', { min: 0 })}
      {num('Each next mesh finer by (ratio)', 'ratio', 'study-convergence-ratio', {
        min: 1.1,
        max: 4,
        step: 0.1,
      })}
      {num('At most (meshes)', 'maxPoints', 'study-convergence-max', { min: 2, max: CONVERGENCE_MAX_POINTS })}
      <div className="muted small">
        Element sizes: {convergenceSizes(v).map(fmt).join(', ')} {props.units}. Each mesh is made from the
        uploaded model; face selections must be whole CAD faces.
        {props.curvatureRefinement
          ? ' Curvature refinement is on (Mesh settings): it holds the size on curved faces, so the sizes are nominal there.'
          : ''}
      </div>
    </div>
  );
}
