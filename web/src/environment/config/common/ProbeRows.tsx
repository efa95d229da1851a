import { useEnv } from '../../state/EnvironmentContext.tsx';
import { TripleInput } from '../../ui/TripleInput.tsx';
import { newRows } from '../analysis-form.ts';
import { defaultProbePoint } from '../probe-default.ts';
import { useForm } from '../use-form.ts';

/**
 * The probe points of a transient or harmonic run (EM, thermal, vibration): a name and an [x, y, z] in the
 * model's units per probe. The coordinates take a line of their own, the full width of the panel, so a
 * value such as 0.001875 shows all its digits (qa32: beside the name they were 47 px wide and clipped).
 */
export function ProbeRows() {
  const { form, setRow, addRow, removeRow } = useForm();
  const mesh = useEnv((s) => s.model?.mesh);
  return (
    <div className="rows">
      {form.probes.map((p, i) => (
        <div className="probe-row" key={p.key} data-testid={`probe-${i}`}>
          <input
            className="probe-name"
            aria-label="Probe name"
            value={p.name}
            onChange={(e) => setRow('probes', p.key, { name: e.target.value })}
          />
          <button type="button" className="icon" title="Remove" onClick={() => removeRow('probes', p.key)}>
            ✕
          </button>
          <TripleInput label="at" value={p.point} onChange={(t) => setRow('probes', p.key, { point: t })} />
        </div>
      ))}
      <button
        type="button"
        className="add"
        onClick={() => addRow('probes', newRows.probe(form.probes.length, defaultProbePoint(mesh)))}
      >
        + Add probe
      </button>
    </div>
  );
}
