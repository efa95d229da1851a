import { familyAvailable, familyById } from '../families/registry.ts';
import { studyConfigOf } from '../studies/study-config.ts';
import { SweepActionProvider } from '../studies/sweep-action.tsx';
import { COMMON_GROUPS } from './common/common-groups.ts';
import { ComingSoon, PhysicsChooser } from './PhysicsChooser.tsx';
import { useForm } from './use-form.ts';

/** The analysis configuration form (spec 001 §2 groups), shown once a volume mesh exists: the physics
 * chooser, then the chosen family's groups (families/<id>/index.ts) and the groups every family shows. */
export function AnalysisConfigForm() {
  const { form } = useForm();
  const family = familyById(form.physics);
  return (
    <div className="config-form" data-testid="config-form">
      <PhysicsChooser />
      {familyAvailable(family.id) ? (
        // every numeric input of the groups has a Sweep action (the Design study card sweeps it)
        <SweepActionProvider config={studyConfigOf}>
          <family.Groups />
          {COMMON_GROUPS.map((Group) => (
            <Group key={Group.name} />
          ))}
        </SweepActionProvider>
      ) : (
        <ComingSoon family={family.id} />
      )}
    </div>
  );
}
