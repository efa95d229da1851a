import { SolverGroup } from '../../config/common/SolverGroup.tsx';
import { AnalysisTypeGroup } from './AnalysisTypeGroup.tsx';
import { BoundaryGroup } from './BoundaryGroup.tsx';
import { CurvedMeshGroup } from './CurvedMeshGroup.tsx';
import { MaterialsGroup } from './MaterialsGroup.tsx';
import { OutputGroup } from './OutputGroup.tsx';
import { PmlGroup } from './PmlGroup.tsx';
import { SParametersGroup } from './SParametersGroup.tsx';
import { TransientGroup } from './TransientGroup.tsx';
import { WavePortsGroup } from './WavePortsGroup.tsx';

/** Spec 001 §2 groups of the electromagnetic analysis. */
export function ElectromagneticGroups() {
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
