import type { ReactElement } from 'react';
import { ElectromagneticGroups } from './em/ElectromagneticGroups.tsx';
import { familyAvailable, type PhysicsFamily } from './families.ts';
import { ComingSoon, PhysicsChooser } from './PhysicsChooser.tsx';
import { StructuralGroups } from './structural/StructuralGroups.tsx';
import { ThermalGroups } from './thermal/ThermalGroups.tsx';
import { useForm } from './use-form.ts';
import { VibrationGroups } from './vibration/VibrationGroups.tsx';

/** Each family's form folder, one line each. */
const FAMILY_FORMS: Record<PhysicsFamily, () => ReactElement> = {
  em: ElectromagneticGroups,
  thermal: ThermalGroups,
  vibration: VibrationGroups,
  structural: StructuralGroups,
};

/** The analysis configuration form (spec 001 §2 groups), shown once a volume mesh exists: the physics
 * chooser, then the chosen family's groups. */
export function AnalysisConfigForm() {
  const { form } = useForm();
  const Groups = FAMILY_FORMS[form.physics];
  return (
    <div className="config-form" data-testid="config-form">
      <PhysicsChooser />
      {familyAvailable(form.physics) ? <Groups /> : <ComingSoon family={form.physics} />}
    </div>
  );
}
