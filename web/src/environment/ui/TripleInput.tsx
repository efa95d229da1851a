import type { Triple } from '../config/analysis-form.ts';

/** Three inputs for an [x, y, z] value. */
export function TripleInput(props: {
  label: string;
  value: Triple;
  onChange: (t: Triple) => void;
  placeholder?: string;
}) {
  return (
    <div className="triple">
      <span className="triple-label">{props.label}</span>
      {(['x', 'y', 'z'] as const).map((axis, i) => (
        <input
          key={axis}
          aria-label={`${props.label} ${axis}`}
          placeholder={props.placeholder ?? axis}
          value={props.value[i]}
          onChange={(e) => {
            const next = [...props.value] as Triple;
            next[i] = e.target.value;
            props.onChange(next);
          }}
        />
      ))}
    </div>
  );
}
