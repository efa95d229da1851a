import type { MeshData } from '@fieldline/contracts';
import { useMemo } from 'react';
import { useEnv } from '../../state/EnvironmentContext.tsx';
import { TripleInput } from '../../ui/TripleInput.tsx';
import { newProbeRow, type Triple } from '../analysis-form.ts';
import { parseNumber } from '../numbers.ts';
import { defaultProbePoint } from '../probe-default.ts';
import { locateProbe } from '../probe-inside.ts';
import { useForm } from '../use-form.ts';

/**
 * The probe points of a transient or harmonic run (EM, thermal, vibration): a name and an [x, y, z] in the
 * model's units per probe. The coordinates take a line of their own, the full width of the panel, so a
 * value such as 0.001875 shows all its digits (qa32: beside the name they were 47 px wide and clipped).
 * `outsideOutcome`: what the run does with a probe outside the model, said beside it before the run.
 */
export function ProbeRows(props: { outsideOutcome: string }) {
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
          {mesh && (
            <OutsideWarning
              mesh={mesh}
              point={p.point}
              outcome={props.outsideOutcome}
              testId={`probe-${i}-outside`}
            />
          )}
        </div>
      ))}
      <button
        type="button"
        className="add"
        onClick={() => addRow('probes', newProbeRow(form.probes.length, defaultProbePoint(mesh)))}
      >
        + Add probe
      </button>
    </div>
  );
}

const text = (x: number): string => String(Number(x.toPrecision(6)));

/** "Outside the model: …" under a probe whose point is in no element of the loaded mesh (it does not stop the run). */
function OutsideWarning(props: { mesh: MeshData; point: Triple; outcome: string; testId: string }) {
  const { mesh } = props;
  const [x, y, z] = props.point;
  const place = useMemo(() => {
    const p = [x, y, z].map(parseNumber);
    return p.every((c) => c !== undefined) ? locateProbe(mesh, p as number[]) : null;
  }, [mesh, x, y, z]);
  if (!place || place.kind === 'inside') return null;
  const units = mesh.units ?? 'm';
  const where =
    place.kind === 'outside-box'
      ? `the model spans ${place.axis} ${text(place.low)} to ${text(place.high)}\u00a0${units}`
      : 'the point is within its bounding box but in no element (a hole or a gap)';
  return (
    <small className="hint warn" role="status" data-testid={props.testId}>
      Outside the model: {where}. {props.outcome}
    </small>
  );
}
