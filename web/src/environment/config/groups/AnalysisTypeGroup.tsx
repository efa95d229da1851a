import { ANALYSIS_BOUNDS } from '@fieldline/contracts';
import { formatHz } from '../../results/quantities.ts';
import { NumberField, Slider } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { useForm } from '../use-form.ts';

const GHZ = 1e9;
const f = ANALYSIS_BOUNDS.frequencyHz;

/** Analysis type and frequency: slider 0–20 GHz in 0.1 GHz steps, 0 shown as DC (spec 001 §5). */
export function AnalysisTypeGroup() {
  const { form, set } = useForm();
  const kind = form.transient
    ? 'Electromagnetic, time domain'
    : form.frequencyHz === 0
      ? 'Electromagnetic, static (DC)'
      : 'Electromagnetic, frequency domain';
  return (
    <Section
      title="Analysis type & frequency"
      defaultOpen
      badge={formatHz(form.frequencyHz)}
      testId="group-analysis"
    >
      <p className="muted small">{kind}</p>
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
    </Section>
  );
}
