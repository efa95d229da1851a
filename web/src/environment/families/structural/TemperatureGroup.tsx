import { ChainSourcePicker } from '../../config/common/ChainSourcePicker.tsx';
import { parseNumber } from '../../config/numbers.ts';
import { useForm } from '../../config/use-form.ts';
import { Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import type { TemperatureSource } from './thermal-load.ts';

const celsius = (text: string) => {
  const k = parseNumber(text);
  return k === undefined ? undefined : `= ${+(k - 273.15).toFixed(2)} °C`;
};

/** A structural run's thermal load (docs/multiphysics.md §7): none, a uniform temperature, or the temperature
 * of a completed thermal job of this model; each body strains by α (T − T_ref). */
export function TemperatureGroup() {
  const { form, set } = useForm();
  const from = form.structuralTemperatureFrom;
  return (
    <Section
      title="Temperature"
      badge={from === 'none' ? undefined : from}
      testId="group-structural-temperature"
    >
      <Select<TemperatureSource>
        label="Temperature from"
        value={from}
        options={[
          { value: 'none', label: 'None (no thermal load)' },
          { value: 'uniform', label: 'Uniform temperature' },
          { value: 'job', label: 'A completed thermal run of this model' },
        ]}
        testId="structural-temperature-from"
        onChange={(v) => set({ structuralTemperatureFrom: v })}
      />
      {from === 'uniform' && (
        <TextField
          label="Temperature"
          unit="K"
          value={form.structuralTemperature}
          hint={celsius(form.structuralTemperature)}
          onChange={(v) => set({ structuralTemperature: v })}
          testId="structural-temperature"
        />
      )}
      {from === 'job' && (
        <ChainSourcePicker
          field="temperature"
          label="Thermal run"
          value={form.structuralTemperatureJob}
          onChange={(v) => set({ structuralTemperatureJob: v })}
          testId="structural-temperature-source"
        />
      )}
      {from !== 'none' && (
        <>
          <TextField
            label="Stress-free temperature T_ref"
            unit="K"
            value={form.structuralReferenceTemperature}
            hint={celsius(form.structuralReferenceTemperature)}
            onChange={(v) => set({ structuralReferenceTemperature: v })}
            testId="structural-reference-temperature"
          />
          <p className="small muted">
            Each body strains by α (T − T<sub>ref</sub>), α its material's thermal expansion (in the materials
            table below).
          </p>
        </>
      )}
    </Section>
  );
}
