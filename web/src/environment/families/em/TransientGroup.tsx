import { PULSE_SHAPES, TIME_SCHEMES } from '@fieldline/contracts';
import { ProbeRows } from '../../config/common/ProbeRows.tsx';
import { useForm } from '../../config/use-form.ts';
import { useEnv } from '../../state/EnvironmentContext.tsx';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { TripleInput } from '../../ui/TripleInput.tsx';
import { newEmRows, type PulseShape, type TimeScheme } from './em-form.ts';
import { pulseResolutionWarning } from './pulse-resolution.ts';

const PULSE_LABELS: Record<PulseShape, string> = {
  gaussian: 'Gaussian',
  modulated_gaussian: 'Modulated Gaussian',
  sinusoidal: 'Sinusoidal (ramped)',
};

/** Transient: time step, end time, scheme, the excitation pulse, probes and volume currents. */
export function TransientGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  const units = useEnv((s) => s.model?.mesh.units ?? 'm');
  const bodies = useEnv((s) => s.bodies);
  const resolution = pulseResolutionWarning(form);
  return (
    <Section title="Transient" badge={form.transient ? 'on' : undefined} testId="group-transient">
      <Checkbox
        label="Time-domain analysis"
        checked={form.transient}
        onChange={(on) => set({ transient: on })}
        testId="transient"
      />
      {form.transient && (
        <>
          <div className="row2">
            <TextField
              label="Time step"
              unit="s"
              value={form.timeStep}
              onChange={(v) => set({ timeStep: v })}
            />
            <TextField label="End time" unit="s" value={form.endTime} onChange={(v) => set({ endTime: v })} />
          </div>
          <Select<TimeScheme>
            label="Time scheme"
            value={form.timeScheme}
            options={TIME_SCHEMES.map((s) => ({ value: s, label: s }))}
            onChange={(v) => set({ timeScheme: v })}
          />
          <h4>Excitation</h4>
          <Select<PulseShape>
            label="Pulse"
            value={form.pulseShape}
            options={PULSE_SHAPES.map((s) => ({ value: s, label: PULSE_LABELS[s] }))}
            onChange={(v) => set({ pulseShape: v })}
          />
          <div className="row3">
            <TextField
              label="Width"
              unit="s"
              value={form.pulseWidth}
              onChange={(v) => set({ pulseWidth: v })}
            />
            <TextField
              label="Delay"
              unit="s"
              value={form.pulseDelay}
              onChange={(v) => set({ pulseDelay: v })}
            />
            <TextField
              label="Carrier"
              unit="Hz"
              value={form.pulseFrequency}
              onChange={(v) => set({ pulseFrequency: v })}
            />
          </div>
          <small className="hint">
            0 = automatic: width endTime/15, delay 5 widths, carrier = the frequency above.
          </small>
          {resolution && (
            <small className="hint bad" data-testid="pulse-resolution" role="status">
              {resolution}
            </small>
          )}
          <h4>Probes ({units})</h4>
          <ProbeRows outsideOutcome="The run leaves this probe out." />
          <h4>Volume currents</h4>
          <div className="rows">
            {form.volumeCurrents.map((c) => (
              <div className="row-card" key={c.key}>
                <TripleInput
                  label="J A/m²"
                  value={c.density}
                  onChange={(t) => setRow('volumeCurrents', c.key, { density: t })}
                />
                <div className="row2">
                  <label className="field">
                    <span>In body</span>
                    <select
                      value={c.region}
                      onChange={(e) => setRow('volumeCurrents', c.key, { region: e.target.value })}
                    >
                      <option value="">— (box only)</option>
                      {(bodies.length ? bodies : [{ region: 0, name: 'Body 1' }]).map((b) => (
                        <option key={b.region} value={String(b.region)}>
                          {b.name}
                        </option>
                      ))}
                    </select>
                  </label>
                  <TextField
                    label="Phase"
                    unit="°"
                    value={c.phase}
                    onChange={(v) => setRow('volumeCurrents', c.key, { phase: v })}
                  />
                </div>
                <TripleInput
                  label="box min"
                  placeholder="—"
                  value={c.boxMin}
                  onChange={(t) => setRow('volumeCurrents', c.key, { boxMin: t })}
                />
                <TripleInput
                  label="box max"
                  placeholder="—"
                  value={c.boxMax}
                  onChange={(t) => setRow('volumeCurrents', c.key, { boxMax: t })}
                />
                <button type="button" className="link" onClick={() => removeRow('volumeCurrents', c.key)}>
                  Remove current
                </button>
              </div>
            ))}
            <button
              type="button"
              className="add"
              onClick={() => addRow('volumeCurrents', newEmRows.volumeCurrent())}
            >
              + Add volume current
            </button>
          </div>
        </>
      )}
    </Section>
  );
}
