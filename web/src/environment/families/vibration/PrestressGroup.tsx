import { ChainSourcePicker } from '../../config/common/ChainSourcePicker.tsx';
import { useForm } from '../../config/use-form.ts';
import { Select } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { VibrationFormFields } from './vibration-form.ts';

/** A modal run's prestress (docs/multiphysics.md §7): tension raises the frequencies, compression lowers them. */
export function PrestressGroup() {
  const { form, set } = useForm();
  const kind = form.vibrationPrestress;
  return (
    <Section title="Prestress" badge={kind === 'none' ? undefined : kind} testId="group-prestress">
      <Select<VibrationFormFields['vibrationPrestress']>
        label="Prestressed"
        value={kind}
        options={[
          { value: 'none', label: 'No (unstressed modes)' },
          { value: 'loads', label: 'Yes, by the supports and loads below (a static solve first)' },
          { value: 'job', label: 'Prestress from a completed structural run of this model' },
        ]}
        testId="vibration-prestress"
        onChange={(v) => set({ vibrationPrestress: v })}
      />
      {kind === 'job' && (
        <ChainSourcePicker
          field="stress"
          label="Prestress from"
          value={form.vibrationPrestressJob}
          onChange={(v) => set({ vibrationPrestressJob: v })}
          testId="vibration-prestress-source"
        />
      )}
    </Section>
  );
}
