import { familyAvailable } from './families.ts';
import { AnalysisTypeGroup } from './groups/AnalysisTypeGroup.tsx';
import { BoundaryGroup } from './groups/BoundaryGroup.tsx';
import { CurvedMeshGroup } from './groups/CurvedMeshGroup.tsx';
import { MaterialsGroup } from './groups/MaterialsGroup.tsx';
import { OutputGroup } from './groups/OutputGroup.tsx';
import { PmlGroup } from './groups/PmlGroup.tsx';
import { SolverGroup } from './groups/SolverGroup.tsx';
import { SParametersGroup } from './groups/SParametersGroup.tsx';
import { TransientGroup } from './groups/TransientGroup.tsx';
import { WavePortsGroup } from './groups/WavePortsGroup.tsx';
import { ComingSoon, PhysicsChooser } from './PhysicsChooser.tsx';
import { StructuralGroups } from './structural/StructuralGroups.tsx';
import { ThermalGroups } from './thermal/ThermalGroups.tsx';
import { useForm } from './use-form.ts';
import { VibrationGroups } from './vibration/VibrationGroups.tsx';

/** The analysis configuration form (spec 001 §2 groups), shown once a volume mesh exists: the physics
 * chooser, then the chosen family's groups. */
export function AnalysisConfigForm() {
  const { form } = useForm();
  return (
    <div className="config-form" data-testid="config-form">
      <PhysicsChooser />
      {!familyAvailable(form.physics) ? (
        <ComingSoon family={form.physics} />
      ) : form.physics === 'structural' ? (
        <StructuralGroups />
      ) : form.physics === 'thermal' ? (
        <ThermalGroups />
      ) : form.physics === 'vibration' ? (
        <VibrationGroups />
      ) : (
        <ElectromagneticGroups />
      )}
    </div>
  );
}

/** Spec 001 §2 groups of the electromagnetic analysis. */
function ElectromagneticGroups() {
  return (
    <>
      <AnalysisTypeGroup />
      <BoundaryGroup />
      <MaterialsGroup />
      <SolverGroup />
      <CurvedMeshGroup />
      <TransientGroup />
      <PmlGroup />
      <WavePortsGroup />
      <SParametersGroup />
      <OutputGroup />
    </>
  );
}
