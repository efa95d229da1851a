import { ANALYSIS_BOUNDS } from '@fieldline/contracts';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, Slider, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';

const t = ANALYSIS_BOUNDS.pmlThickness;

export function PmlGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Radial PML" badge={form.useRadialPML ? 'on' : undefined} testId="group-pml">
      <Checkbox label="Radial PML" checked={form.useRadialPML} onChange={(on) => set({ useRadialPML: on })} />
      {form.useRadialPML && (
        <>
          <Slider
            label="Thickness"
            min={t.min}
            max={t.max}
            step={t.step}
            value={form.pmlThickness}
            display={form.pmlThickness.toFixed(2)}
            onChange={(v) => set({ pmlThickness: v })}
          />
          <TextField
            label="Sigma max"
            unit="S/m"
            value={form.pmlSigmaMax}
            onChange={(v) => set({ pmlSigmaMax: v })}
          />
        </>
      )}
    </Section>
  );
}
