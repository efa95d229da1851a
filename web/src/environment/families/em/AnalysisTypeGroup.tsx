import { ANALYSIS_BOUNDS, AVAILABLE_ANALYSIS_TYPES } from '@fieldline/contracts';
import type { AnalysisForm } from '../../config/analysis-form.ts';
import { useForm } from '../../config/use-form.ts';
import { formatHz } from '../../results/quantities.ts';
import { NumberField, Select, Slider, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { Formulation } from './em-form.ts';
import { isMagneticType } from './magnetics/magnetics-to-backend.ts';

const GHZ = 1e9;
/** The magnetic analyses, offered once their engine has landed (AVAILABLE_ANALYSIS_TYPES). */
const MAGNETIC_OPTIONS = (
  [
    { value: 'magnetostatic', label: 'Magnetostatic (coils, magnets, iron)' },
    { value: 'eddy-current', label: 'Eddy currents (time-harmonic)' },
  ] as const
).filter((o) => AVAILABLE_ANALYSIS_TYPES.includes(o.value));
const f = ANALYSIS_BOUNDS.frequencyHz;

/** Analysis type and frequency: slider 0–20 GHz in 0.1 GHz steps, 0 shown as DC (spec 001 §5). */
export function AnalysisTypeGroup() {
  const { form, set } = useForm();
  const magnetic = isMagneticType(form.analysisType);
  const kind = magnetic
    ? form.analysisType === 'magnetostatic'
      ? 'Coils, magnets and iron: DC magnetic field, inductance, force and torque'
      : 'Time-harmonic magnetic field with induced currents: losses, resistance and reactance'
    : form.transient
      ? 'Electromagnetic, time domain'
      : form.frequencyHz === 0
        ? 'Electromagnetic, static (DC)'
        : 'Electromagnetic, frequency domain';
  return (
    <Section
      title="Analysis type & frequency"
      defaultOpen
      badge={
        form.analysisType === 'magnetostatic'
          ? 'DC'
          : form.analysisType === 'eddy-current'
            ? `${form.eddyFrequencyHz} Hz`
            : formatHz(form.frequencyHz)
      }
      testId="group-analysis"
    >
      <Select<AnalysisForm['analysisType']>
        label="Analysis"
        value={form.analysisType}
        options={[
          { value: 'em', label: 'Electromagnetic' },
          { value: 'em-eigen', label: 'Electromagnetic eigenmodes' },
          ...MAGNETIC_OPTIONS,
        ]}
        onChange={(v) => set({ analysisType: v })}
        testId="analysis-type"
      />
      <p className="muted small">{kind}</p>
      {form.analysisType === 'em' && !form.transient && form.frequencyHz > 0 && (
        <Select<Formulation>
          label="Formulation"
          value={form.formulation}
          options={[
            { value: 'auto', label: 'Automatic (quasi-static unless ports, PML or impedance walls)' },
            { value: 'fullwave', label: 'Full-wave Maxwell' },
          ]}
          onChange={(v) => set({ formulation: v })}
        />
      )}
      {form.analysisType === 'em-eigen' && (
        <div className="row2">
          <TextField
            label="Modes"
            inputMode="numeric"
            value={form.eigenNumModes}
            onChange={(v) => set({ eigenNumModes: v })}
            hint="1–50"
          />
          <TextField
            label="Mode to show"
            inputMode="numeric"
            value={form.eigenFieldMode}
            onChange={(v) => set({ eigenFieldMode: v })}
            hint="0 = lowest"
          />
        </div>
      )}
      {form.analysisType === 'eddy-current' && (
        <TextField
          label="Frequency"
          unit="Hz"
          value={form.eddyFrequencyHz}
          invalid={!(Number(form.eddyFrequencyHz) > 0)}
          onChange={(v) => set({ eddyFrequencyHz: v })}
          testId="eddy-frequency"
        />
      )}
      {!magnetic && (
        <>
          <Slider
            label="Frequency"
            min={f.min / GHZ}
            max={f.max / GHZ}
            step={f.step / GHZ}
            value={Math.round((form.frequencyHz / GHZ) * 10) / 10}
            display={form.frequencyHz === 0 ? 'DC' : `${+(form.frequencyHz / GHZ).toFixed(3)} GHz`}
            onChange={(ghz) => set({ frequencyHz: Math.round(ghz * 10) * 1e8 })}
            testId="frequency-slider"
          />
          <NumberField
            label="Exact frequency"
            unit="GHz"
            value={form.frequencyHz / GHZ}
            onChange={(ghz) => set({ frequencyHz: Math.min(f.max, Math.max(f.min, ghz * GHZ)) })}
            hint="0 runs a static (DC) analysis."
            testId="frequency-input"
          />
        </>
      )}
    </Section>
  );
}
