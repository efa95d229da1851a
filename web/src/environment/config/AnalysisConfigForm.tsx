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

/** The analysis configuration form (spec 001 §2 groups), shown once a volume mesh exists. */
export function AnalysisConfigForm() {
  return (
    <div className="config-form" data-testid="config-form">
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
    </div>
  );
}
