import type { Triple } from '../config/analysis-form.ts';
import { useSweepAction } from '../studies/sweep-action.tsx';
import { SweepButton } from './fields.tsx';

const AXES = ['x', 'y', 'z'] as const;

/**
 * Three inputs for an [x, y, z] value. Inside the analysis form each component has its own Sweep (a
 * study sweeps one number: `…[2]` for z), on a second row under its input.
 */
export function TripleInput(props: {
  label: string;
  value: Triple;
  onChange: (t: Triple) => void;
  placeholder?: string;
  testId?: string;
}) {
  const sweepable = useSweepAction() !== null;
  const withComponent = (i: number, text: string) => {
    const next = [...props.value] as Triple;
    next[i] = text;
    props.onChange(next);
  };
  return (
    <div className="triple">
      <span className="triple-label">{props.label}</span>
      {AXES.map((axis, i) => (
        <input
          key={axis}
          aria-label={`${props.label} ${axis}`}
          placeholder={props.placeholder ?? axis}
          value={props.value[i]}
          data-testid={props.testId ? `${props.testId}-${axis}` : undefined}
          onChange={(e) => withComponent(i, e.target.value)}
        />
      ))}
      {sweepable && (
        <>
          <span />
          {AXES.map((axis, i) => (
            <SweepButton
              key={axis}
              label={`${props.label} ${axis}`}
              text={props.value[i] ?? ''}
              probe={(text) => withComponent(i, text)}
              testId={props.testId ? `${props.testId}-${axis}-sweep` : undefined}
            >
              sweep {axis}
            </SweepButton>
          ))}
        </>
      )}
    </div>
  );
}
