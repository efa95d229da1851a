import { useForm } from '../../../config/use-form.ts';
import { CoilsGroup, SolidConductorsGroup } from './CoilsGroup.tsx';
import { AirAndBoundariesGroup, ForcesGroup } from './FieldRegionGroup.tsx';
import { MagneticMaterialsGroup } from './MagneticMaterialsGroup.tsx';

/** The groups of a magnetostatic or eddy-current analysis (docs/magnetics.md). */
export function MagneticsGroups() {
  const { form } = useForm();
  const eddy = form.analysisType === 'eddy-current';
  return (
    <>
      <CoilsGroup eddy={eddy} />
      <SolidConductorsGroup eddy={eddy} />
      <MagneticMaterialsGroup eddy={eddy} />
      <ForcesGroup />
      <AirAndBoundariesGroup />
    </>
  );
}
