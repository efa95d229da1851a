import { WAVE_PORT_MODES } from '@fieldline/contracts';
import { useEffect, useMemo, useRef } from 'react';
import { FaceListInput } from '../../config/FaceListInput.tsx';
import { parseFaceList } from '../../config/face-list.ts';
import { useForm } from '../../config/use-form.ts';
import { useEnv } from '../../state/EnvironmentContext.tsx';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Notice } from '../../ui/Messages.tsx';
import { Section } from '../../ui/Section.tsx';
import { newEmRows, type WavePortMode } from './em-form.ts';
import { portConductorWarning, portFaceShape } from './port-face-shape.ts';

export function WavePortsGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  const mesh = useEnv((s) => s.model?.mesh);
  const facesKey = form.wavePorts.map((p) => `${p.key}:${p.faces}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the shapes change only with the mesh and the faces
  const shapes = useMemo(
    () => form.wavePorts.map((p) => (mesh ? portFaceShape(mesh, parseFaceList(p.faces)) : null)),
    [mesh, facesKey],
  );
  // A port whose faces the user picks on a coaxial annulus runs its TEM mode unless the user chose another
  // (the list starts at TE10). Only a change of faces does it: a restored set-up keeps its saved modes.
  const seenFaces = useRef(new Map<string, string>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the faces' shapes change
  useEffect(() => {
    form.wavePorts.forEach((p, i) => {
      const before = seenFaces.current.get(p.key);
      seenFaces.current.set(p.key, p.faces);
      const shape = shapes[i];
      if (before === undefined || before === p.faces || p.modeChosen || !shape) return;
      const mode: WavePortMode = shape.coaxial ? 'TEM' : p.mode === 'TEM' ? 'TE10' : p.mode;
      if (mode !== p.mode) setRow('wavePorts', p.key, { mode });
    });
  }, [shapes]);
  const sweeping = form.calculateSParameters || form.extractSParameters;
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
                  onChange={(v) => setRow('wavePorts', p.key, { mode: v, modeChosen: true })}
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
                  hint={
                    sweeping
                      ? 'The S-parameter sweep drives each port in turn with 1 W; this amplitude sets the field shown. Blank: 1'
                      : 'Blank: 1 (1 W incident)'
                  }
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
              {shapes[i]?.coaxial && (
                <p className="muted small" data-testid={`wave-port-${i}-shape`}>
                  Coaxial face (inner radius {+shapes[i]!.loops[0]!.radius.toPrecision(3)}, outer{' '}
                  {+shapes[i]!.loops[1]!.radius.toPrecision(3)} {mesh?.units ?? ''}): its TEM mode; the
                  results give its line impedance Z0 = V/I.
                </p>
              )}
              {portConductorWarning(`Port ${p.portID}`, shapes[i] ?? null) && (
                <Notice tone="warn" testId={`wave-port-${i}-warning`}>
                  {portConductorWarning(`Port ${p.portID}`, shapes[i] ?? null)}
                </Notice>
              )}
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
