import { S_PARAM_METHODS } from '@fieldline/contracts';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { SParamMethod } from '../analysis-form.ts';
import { useForm } from '../use-form.ts';

const METHOD_LABELS: Record<SParamMethod, string> = {
  wave_port: 'Wave port',
  field_integration: 'Field integration',
  voltage_current: 'Voltage / current',
  power_wave: 'Power wave',
};

export function SParametersGroup() {
  const { form, set } = useForm();
  return (
    <Section title="S-parameters" badge={form.calculateSParameters ? 'on' : undefined} testId="group-sparams">
      <Checkbox
        label="Calculate S-parameters"
        checked={form.calculateSParameters}
        onChange={(on) => set({ calculateSParameters: on })}
      />
      <Checkbox
        label="Extract S-parameters (frequency sweep)"
        checked={form.extractSParameters}
        onChange={(on) => set({ extractSParameters: on })}
      />
      {(form.calculateSParameters || form.extractSParameters) && (
        <>
          <div className="row2">
            <TextField
              label="Min frequency"
              unit="Hz"
              value={form.sParamFreqMin}
              onChange={(v) => set({ sParamFreqMin: v })}
              hint="Blank: 1e9"
            />
            <TextField
              label="Max frequency"
              unit="Hz"
              value={form.sParamFreqMax}
              onChange={(v) => set({ sParamFreqMax: v })}
              hint="Blank: 1e10"
            />
          </div>
          <TextField
            label="Points"
            inputMode="numeric"
            value={form.sParamNumPoints}
            onChange={(v) => set({ sParamNumPoints: v })}
            hint="Blank: 101"
          />
          <Select<SParamMethod>
            label="Method"
            value={form.sParamMethod}
            options={S_PARAM_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))}
            onChange={(v) => set({ sParamMethod: v })}
          />
        </>
      )}
    </Section>
  );
}
