import { TIME_SCHEMES } from '@fieldline/contracts';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { TimeScheme } from '../analysis-form.ts';
import { useForm } from '../use-form.ts';

export function TransientGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Transient" badge={form.transient ? 'on' : undefined} testId="group-transient">
      <Checkbox
        label="Time-domain analysis"
        checked={form.transient}
        onChange={(on) => set({ transient: on })}
        testId="transient"
      />
      {form.transient && (
        <>
          <div className="row2">
            <TextField
              label="Time step"
              unit="s"
              value={form.timeStep}
              onChange={(v) => set({ timeStep: v })}
            />
            <TextField label="End time" unit="s" value={form.endTime} onChange={(v) => set({ endTime: v })} />
          </div>
          <Select<TimeScheme>
            label="Time scheme"
            value={form.timeScheme}
            options={TIME_SCHEMES.map((s) => ({ value: s, label: s }))}
            onChange={(v) => set({ timeScheme: v })}
          />
        </>
      )}
    </Section>
  );
}
