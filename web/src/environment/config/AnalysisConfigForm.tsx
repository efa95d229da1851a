import { familyAvailable, familyById } from '../families/registry.ts';
import type { EnvironmentState } from '../state/environment-state.ts';
import { SweepActionProvider } from '../studies/sweep-action.tsx';
import { COMMON_GROUPS } from './common/common-groups.ts';
import { ComingSoon, PhysicsChooser } from './PhysicsChooser.tsx';
import { toBackendConfig } from './to-backend-config.ts';
import { useForm } from './use-form.ts';

const configOf = (s: EnvironmentState) => toBackendConfig(s.form, { bodies: s.bodies });

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
        <SweepActionProvider config={configOf}>
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
