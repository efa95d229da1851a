import { S_PARAM_METHODS, S_PARAM_SWEEP_TYPES } from '@fieldline/contracts';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { SParamMethod, SParamSweepType } from './em-form.ts';

const METHOD_LABELS: Record<SParamMethod, string> = {
  wave_port: 'Wave port',
  field_integration: 'Field integration',
  voltage_current: 'Voltage / current',
  power_wave: 'Power wave',
};

const SWEEP_LABELS: Record<SParamSweepType, string> = {
  uniform: 'Uniform (full solve per point)',
  adaptive: 'Adaptive (fast, reduced-order model)',
};

export function SParametersGroup() {
  const { form, set } = useForm();
  return (
    <Section title="S-parameters" badge={form.calculateSParameters ? 'on' : undefined} testId="group-sparams">
      <Checkbox
        label="Calculate S-parameters"
        checked={form.calculateSParameters}
        onChange={(on) => set({ calculateSParameters: on })}
        testId="calculate-sparams"
      />
      {/* either box runs the same sweep: the second shows it checked when the first asks for it */}
      <Checkbox
        label="Extract S-parameters (frequency sweep)"
        checked={form.extractSParameters || form.calculateSParameters}
        disabled={form.calculateSParameters}
        onChange={(on) => set({ extractSParameters: on })}
        testId="extract-sparams"
      />
      {form.calculateSParameters && (
        <p className="muted small" data-testid="extract-sparams-note">
          On: calculating S-parameters sweeps the band below.
        </p>
      )}
      {(form.calculateSParameters || form.extractSParameters) && (
        <>
          <div className="row2">
            <TextField
              label="Min frequency"
              unit="Hz"
              value={form.sParamFreqMin}
              onChange={(v) => set({ sParamFreqMin: v })}
              testId="sparam-freq-min"
              hint="Blank: 1e9"
            />
            <TextField
              label="Max frequency"
              unit="Hz"
              value={form.sParamFreqMax}
              onChange={(v) => set({ sParamFreqMax: v })}
              testId="sparam-freq-max"
              hint="Blank: 1e10"
            />
          </div>
          <TextField
            label="Points"
            inputMode="numeric"
            value={form.sParamNumPoints}
            onChange={(v) => set({ sParamNumPoints: v })}
            testId="sparam-points"
            hint="Blank: 101"
          />
          <Select<SParamMethod>
            label="Method"
            value={form.sParamMethod}
            options={S_PARAM_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))}
            onChange={(v) => set({ sParamMethod: v })}
          />
          <Select<SParamSweepType>
            label="Sweep"
            value={form.sParamSweepType}
            options={S_PARAM_SWEEP_TYPES.map((t) => ({ value: t, label: SWEEP_LABELS[t] }))}
            onChange={(v) => set({ sParamSweepType: v })}
            testId="sparam-sweep-type"
          />
          {form.sParamSweepType === 'adaptive' && (
            <TextField
              label="Adaptive tolerance"
              value={form.sParamAdaptiveTolerance}
              onChange={(v) => set({ sParamAdaptiveTolerance: v })}
              hint="Relative residual, 1e-8 to 0.1. Blank: 1e-3"
              testId="sparam-adaptive-tolerance"
            />
          )}
        </>
      )}
    </Section>
  );
}
