import { BodyMaterialsGroup } from '../../config/common/BodyMaterialsGroup.tsx';
import { ProbeRows } from '../../config/common/ProbeRows.tsx';
import { SolverGroup, SPD_SOLVERS } from '../../config/common/SolverGroup.tsx';
import { useForm } from '../../config/use-form.ts';
import { Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { LoadsGroup, StructuralOrderGroup, SupportsGroup } from '../structural/StructuralGroups.tsx';
import { PrestressGroup } from './PrestressGroup.tsx';
import { VIBRATION_PROPERTIES } from './vibration-form.ts';

/** The vibration form (docs/vibration.md): modal or harmonic, the structural supports (none = free–free),
 * loads as amplitudes for a harmonic run, materials, and the eigen / sweep settings. */
export function VibrationGroups() {
  const { form } = useForm();
  return (
    <>
      <VibrationKindGroup />
      <SupportsGroup />
      {form.vibrationKind === 'modal' && <PrestressGroup />}
      {(form.vibrationKind === 'harmonic' || form.vibrationPrestress === 'loads') && <LoadsGroup />}
      <BodyMaterialsGroup properties={VIBRATION_PROPERTIES} />
      <StructuralOrderGroup />
      <SolverGroup solvers={SPD_SOLVERS} />
    </>
  );
}

function VibrationKindGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Vibration" defaultOpen badge={form.vibrationKind} testId="group-vibration">
      <Select<'modal' | 'harmonic'>
        label="Analysis"
        value={form.vibrationKind}
        options={[
          { value: 'modal', label: 'Modal: natural frequencies and mode shapes' },
          { value: 'harmonic', label: 'Harmonic response to the loads' },
        ]}
        testId="vibration-kind"
        onChange={(v) => set({ vibrationKind: v })}
      />
      <div className="row2">
        <TextField
          label="Modes"
          inputMode="numeric"
          value={form.modalNumModes}
          testId="modal-num-modes"
          onChange={(v) => set({ modalNumModes: v })}
        />
        {form.vibrationKind === 'modal' && (
          <TextField
            label="From frequency"
            unit="Hz"
            value={form.modalMinFrequency}
            placeholder="0"
            onChange={(v) => set({ modalMinFrequency: v })}
          />
        )}
      </div>
      {form.vibrationKind === 'modal' ? (
        <small className="hint">
          Without supports the part is free–free: its six rigid-body modes (0 Hz) are found and listed too.
        </small>
      ) : (
        <small className="hint" data-testid="harmonic-hint">
          The response sums the lowest modes: ask for enough to pass 1.5 × the band's top. A harmonic run
          needs supports (a free part's rigid-body motion has no bound at 0 Hz).
        </small>
      )}
      {form.vibrationKind === 'harmonic' && (
        <>
          <div className="row3">
            <TextField
              label="From"
              unit="Hz"
              value={form.harmonicFreqMin}
              onChange={(v) => set({ harmonicFreqMin: v })}
            />
            <TextField
              label="To"
              unit="Hz"
              value={form.harmonicFreqMax}
              testId="harmonic-freq-max"
              onChange={(v) => set({ harmonicFreqMax: v })}
            />
            <TextField
              label="Points"
              inputMode="numeric"
              value={form.harmonicNumPoints}
              testId="harmonic-num-points"
              onChange={(v) => set({ harmonicNumPoints: v })}
            />
          </div>
          <div className="row2">
            <TextField
              label="Damping ratio ζ"
              value={form.dampingRatio}
              onChange={(v) => set({ dampingRatio: v })}
            />
            <Select<'modal' | 'full'>
              label="Method"
              value={form.harmonicMethod}
              options={[
                { value: 'modal', label: 'Mode superposition' },
                { value: 'full', label: 'Full (direct solves)' },
              ]}
              onChange={(v) => set({ harmonicMethod: v })}
            />
          </div>
          <div className="row2">
            <TextField
              label="Rayleigh α (1/s)"
              value={form.rayleighAlpha}
              placeholder="blank: ζ above"
              testId="rayleigh-alpha"
              onChange={(v) => set({ rayleighAlpha: v })}
            />
            <TextField
              label="Rayleigh β (s)"
              value={form.rayleighBeta}
              placeholder="blank: ζ above"
              testId="rayleigh-beta"
              onChange={(v) => set({ rayleighBeta: v })}
            />
          </div>
          <h4>Probes</h4>
          <ProbeRows outsideOutcome="The run leaves this probe out." />
        </>
      )}
    </Section>
  );
}
