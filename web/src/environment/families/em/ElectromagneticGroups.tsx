import { SolverGroup } from '../../config/common/SolverGroup.tsx';
import { useForm } from '../../config/use-form.ts';
import { AnalysisTypeGroup } from './AnalysisTypeGroup.tsx';
import { BoundaryGroup } from './BoundaryGroup.tsx';
import { CurvedMeshGroup } from './CurvedMeshGroup.tsx';
import { MaterialsGroup } from './MaterialsGroup.tsx';
import { MagneticsGroups } from './magnetics/MagneticsGroups.tsx';
import { isMagneticType } from './magnetics/magnetics-to-backend.ts';
import { OutputGroup } from './OutputGroup.tsx';
import { PmlGroup } from './PmlGroup.tsx';
import { SParametersGroup } from './SParametersGroup.tsx';
import { TransientGroup } from './TransientGroup.tsx';
import { WavePortsGroup } from './WavePortsGroup.tsx';

/** Spec 001 §2 groups of the electromagnetic analysis. */
export function ElectromagneticGroups() {
  const { form } = useForm();
  if (isMagneticType(form.analysisType))
    return (
      <>
        <AnalysisTypeGroup />
        <MagneticsGroups />
        <SolverGroup />
        <CurvedMeshGroup />
      </>
    );
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
