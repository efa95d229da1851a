import { ADAPTIVE_BOUNDS, ADAPTIVE_DEFAULTS } from '@fieldline/contracts';
import { familyById } from '../../families/registry.ts';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { useForm } from '../use-form.ts';

/**
 * Adaptive refinement (docs/adaptive.md), the same group under every family: the engine solves, estimates the
 * error of each element, refines where the error is, and solves again until the tolerance is met — on the
 * estimated error, or on the change of a chosen quantity between passes (full-wave: max |ΔS|, HFSS's rule).
 * The quantities come from the chosen family; an analysis without an error estimator says so.
 */
export function AdaptiveRefinementGroup() {
  const { form, set } = useForm();
  const family = familyById(form.physics);
  const quantities = family.adaptiveQuantities?.(form) ?? null;
  const frequencyDefault = family.adaptiveFrequency?.(form) ?? null;
  const options = [
    {
      value: '',
      label: 'Estimated error (full-wave: max |ΔS|; modes: the requested frequencies)',
    },
    ...(quantities ?? []).map((q) => ({ value: q.value, label: q.label })),
  ];
  const quantity = options.some((o) => o.value === form.adaptiveQuantity) ? form.adaptiveQuantity : '';
  return (
    <Section
      title="Adaptive refinement"
      badge={form.adaptiveEnabled && quantities ? 'on' : undefined}
      testId="group-adaptive"
    >
      {quantities === null ? (
        <p className="muted small" data-testid="adaptive-unavailable">
          This analysis runs on the mesh as it is: adaptive refinement needs an error estimate (static,
          magnetostatic, eddy-current, thermal steady and transient, structural, thermal-stress,
          natural-frequency, harmonic, cavity-eigenmode, full-wave frequency-domain and time-domain analyses
          adapt).
        </p>
      ) : (
        <>
          <Checkbox
            label="Refine the mesh until the tolerance is met"
            checked={form.adaptiveEnabled}
            onChange={(on) => set({ adaptiveEnabled: on })}
            testId="adaptive-enabled"
          />
          {form.adaptiveEnabled && (
            <>
              <Select<string>
                label="Stop when"
                value={quantity}
                options={options}
                onChange={(v) => set({ adaptiveQuantity: v })}
                testId="adaptive-quantity"
              />
              <div className="row2">
                <TextField
                  label="Tolerance"
                  value={form.adaptiveTolerance}
                  placeholder={`${ADAPTIVE_DEFAULTS.tolerance} (ΔS ${ADAPTIVE_DEFAULTS.fullwaveTolerance})`}
                  hint="0.01 = 1 % relative; full-wave S-parameters: max |ΔS|"
                  onChange={(v) => set({ adaptiveTolerance: v })}
                  testId="adaptive-tolerance"
                />
                <TextField
                  label="Max passes"
                  inputMode="numeric"
                  value={form.adaptiveMaxPasses}
                  hint={`${ADAPTIVE_BOUNDS.maxPasses.min}–${ADAPTIVE_BOUNDS.maxPasses.max}`}
                  onChange={(v) => set({ adaptiveMaxPasses: v })}
                  testId="adaptive-max-passes"
                />
              </div>
              {frequencyDefault !== null && (
                <TextField
                  label="Adaptation frequency"
                  unit="Hz"
                  inputMode="decimal"
                  value={form.adaptiveFrequency}
                  placeholder={frequencyDefault}
                  hint="The passes solve this one frequency; the requested sweep then runs on the final mesh."
                  onChange={(v) => set({ adaptiveFrequency: v })}
                  testId="adaptive-frequency"
                />
              )}
              <TextField
                label="Refined per pass"
                inputMode="decimal"
                value={form.adaptiveFraction}
                placeholder={String(ADAPTIVE_DEFAULTS.fraction)}
                hint="The elements holding this share of the estimated error are refined each pass (Dörfler): larger means fewer, bigger passes."
                onChange={(v) => set({ adaptiveFraction: v })}
                testId="adaptive-fraction"
              />
              <TextField
                label="Size limit"
                unit="unknowns"
                inputMode="numeric"
                value={form.adaptiveMaxUnknowns}
                hint="The run estimate and its charge allow for the model growing to this size."
                onChange={(v) => set({ adaptiveMaxUnknowns: v })}
                testId="adaptive-max-unknowns"
              />
            </>
          )}
        </>
      )}
    </Section>
  );
}
