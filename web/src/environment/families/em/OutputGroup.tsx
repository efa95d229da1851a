import { ANALYSIS_BOUNDS } from '@fieldline/contracts';
import type { Triple } from '../../config/analysis-form.ts';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, Slider, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';

const frames = ANALYSIS_BOUNDS.animationFrames;
const pad = ANALYSIS_BOUNDS.gridPaddingFactor;
const res = ANALYSIS_BOUNDS.gridResolution;

/** Animation, grid fields, verbose and auto-run flags. */
export function OutputGroup() {
  const { form, set } = useForm();
  const setAxis = (i: number, v: string) => {
    const next = [...form.gridResolution] as Triple;
    next[i] = v;
    set({ gridResolution: next });
  };
  return (
    <>
      <Section
        title="Animation"
        badge={form.animate ? `${form.animationFrames} frames` : undefined}
        testId="group-animation"
      >
        <Checkbox label="Animate fields" checked={form.animate} onChange={(on) => set({ animate: on })} />
        {form.animate && (
          <Slider
            label="Frames"
            min={frames.min}
            max={frames.max}
            step={frames.step}
            value={form.animationFrames}
            display={String(form.animationFrames)}
            onChange={(v) => set({ animationFrames: v })}
          />
        )}
      </Section>
      <Section
        title="Grid fields"
        badge={form.gridFieldsEnabled ? form.gridResolution.join('×') : undefined}
        testId="group-grid"
      >
        <Checkbox
          label="Sample fields on a regular grid"
          checked={form.gridFieldsEnabled}
          onChange={(on) => set({ gridFieldsEnabled: on })}
        />
        {form.gridFieldsEnabled && (
          <>
            <div className="row3">
              {(['X', 'Y', 'Z'] as const).map((axis, i) => (
                <TextField
                  key={axis}
                  label={`Resolution ${axis}`}
                  inputMode="numeric"
                  value={form.gridResolution[i] ?? ''}
                  onChange={(v) => setAxis(i, v)}
                  hint={`${res.min}–${res.max}`}
                />
              ))}
            </div>
            <Slider
              label="Padding factor"
              min={pad.min}
              max={pad.max}
              step={pad.step}
              value={form.gridPaddingFactor}
              display={form.gridPaddingFactor.toFixed(2)}
              onChange={(v) => set({ gridPaddingFactor: v })}
            />
          </>
        )}
      </Section>
      <Section title="Run options" testId="group-flags">
        <Checkbox label="Verbose solver log" checked={form.verbose} onChange={(on) => set({ verbose: on })} />
        <Checkbox
          label="Run the analysis automatically after meshing"
          checked={form.autoRunAnalysis}
          onChange={(on) => set({ autoRunAnalysis: on })}
        />
      </Section>
    </>
  );
}
