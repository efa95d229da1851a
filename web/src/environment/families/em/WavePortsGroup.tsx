import { WAVE_PORT_MODES } from '@fieldline/contracts';
import { FaceListInput } from '../../config/FaceListInput.tsx';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { newEmRows, type WavePortMode } from './em-form.ts';

export function WavePortsGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  return (
    <Section
      title="Wave ports"
      badge={form.useWavePorts ? String(form.wavePorts.length) : undefined}
      testId="group-ports"
    >
      <Checkbox
        label="Use wave ports"
        checked={form.useWavePorts}
        onChange={(on) => set({ useWavePorts: on })}
        testId="use-wave-ports"
      />
      {form.useWavePorts && (
        <div className="rows">
          {form.wavePorts.map((p, i) => (
            <div className="row-card" key={p.key} data-testid={`wave-port-${i}`}>
              <div className="row-head">
                <TextField
                  label="Port id"
                  inputMode="text"
                  value={p.portID}
                  onChange={(v) => setRow('wavePorts', p.key, { portID: v })}
                />
                <Select<WavePortMode>
                  label="Mode"
                  value={p.mode}
                  options={WAVE_PORT_MODES.map((m) => ({ value: m, label: m }))}
                  onChange={(v) => setRow('wavePorts', p.key, { mode: v })}
                  testId={`wave-port-${i}-mode`}
                />
                <button
                  type="button"
                  className="icon"
                  title="Remove"
                  onClick={() => removeRow('wavePorts', p.key)}
                >
                  ✕
                </button>
              </div>
              <div className="row2">
                <TextField
                  label="Amplitude"
                  unit="√W"
                  value={p.amplitude}
                  onChange={(v) => setRow('wavePorts', p.key, { amplitude: v })}
                  testId={`wave-port-${i}-amplitude`}
                  hint="Blank: 1 (1 W incident)"
                />
                <TextField
                  label="Phase"
                  unit="°"
                  value={p.phase}
                  onChange={(v) => setRow('wavePorts', p.key, { phase: v })}
                  hint="Blank: 0"
                />
              </div>
              <FaceListInput
                value={p.faces}
                onChange={(v) => setRow('wavePorts', p.key, { faces: v })}
                target={{ list: 'wavePorts', key: p.key }}
                testId={`wave-port-${i}-faces`}
              />
            </div>
          ))}
          <button
            type="button"
            className="add"
            onClick={() => addRow('wavePorts', newEmRows.wavePort(form.wavePorts.length))}
            data-testid="add-wave-port"
          >
            + Add wave port
          </button>
        </div>
      )}
      <TextField
        label="Port impedance"
        unit="Ω"
        value={form.portImpedance}
        onChange={(v) => set({ portImpedance: v })}
        hint="The reference of the voltage/current and power-wave methods (wave-port S are modal). Blank or invalid: 50 Ω"
      />
    </Section>
  );
}
