import type { MeshOrder } from '../../config/analysis-form.ts';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, Select } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';

export function CurvedMeshGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Curved mesh & element order" badge={`p${form.meshOrder}`} testId="group-curved">
      <Checkbox
        label="Curved mesh"
        checked={form.useCurvedMesh}
        onChange={(on) => set({ useCurvedMesh: on })}
      />
      <Checkbox
        label="Curved geometry"
        checked={form.useCurvedGeometry}
        onChange={(on) => set({ useCurvedGeometry: on })}
      />
      <Select<MeshOrder>
        label="Element order"
        value={form.meshOrder}
        options={[
          { value: 1, label: '1 (linear)' },
          { value: 2, label: '2 (quadratic)' },
          { value: 3, label: '3 (cubic)' },
        ]}
        onChange={(v) => set({ meshOrder: v })}
        testId="mesh-order"
      />
    </Section>
  );
}
