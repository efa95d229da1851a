import { BodyMaterialsGroup } from '../../config/common/BodyMaterialsGroup.tsx';
import { SolverGroup, SPD_SOLVERS } from '../../config/common/SolverGroup.tsx';
import { useForm } from '../../config/use-form.ts';
import { TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { LoadsGroup, StructuralOrderGroup, SupportsGroup } from '../structural/StructuralGroups.tsx';
import { InductionSourceGroups, useInductionAssumed } from '../thermal/InductionHeating.tsx';
import { ConditionsGroup, SourcesGroup } from '../thermal/ThermalGroups.tsx';
import { heatingProperties } from '../thermal/thermal-form.ts';

/** Thermal stress (docs/multiphysics.md §7): the thermal conditions and sources (Joule heating included), then
 * the supports and loads, the stress-free temperature, one material table with both families' properties. */
export function ThermalStressGroups() {
  const { form, set } = useForm();
  const assumed = useInductionAssumed();
  return (
    <>
      <ConditionsGroup />
      <SourcesGroup />
      {form.inductionHeating && <InductionSourceGroups />}
      <SupportsGroup />
      <LoadsGroup />
      <Section title="Thermal strain" defaultOpen testId="group-thermal-strain">
        <p className="small muted">
          Each body strains by α (T − T<sub>ref</sub>): α is its material's thermal expansion, T the
          temperature this run solves first.
        </p>
        <TextField
          label="Stress-free temperature T_ref"
          unit="K"
          value={form.thermalStressReference}
          onChange={(v) => set({ thermalStressReference: v })}
          testId="thermal-stress-reference"
        />
      </Section>
      <BodyMaterialsGroup
        assumed={assumed}
        properties={[
          ...heatingProperties(form).filter((p) => p !== 'density' && p !== 'heatCapacity'),
          'youngsModulus',
          'poissonRatio',
          'thermalExpansion',
          'yieldStrength',
        ]}
      />
      <StructuralOrderGroup />
      <SolverGroup solvers={SPD_SOLVERS} />
    </>
  );
}
