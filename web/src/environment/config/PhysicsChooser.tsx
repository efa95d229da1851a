import { familyAvailable, PHYSICS_FAMILIES, type PhysicsFamily } from './families.ts';
import { useForm } from './use-form.ts';

/** Electromagnetic, Thermal, Vibration, Structural: the family whose groups the form shows. */
export function PhysicsChooser() {
  const { form, set } = useForm();
  const choose = (id: PhysicsFamily) => {
    // Linear tetrahedra lock in bending: a structural form starts at element order 2.
    const order = id === 'structural' || id === 'vibration' ? Math.max(2, form.meshOrder) : form.meshOrder;
    set({ physics: id, meshOrder: order as 1 | 2 | 3 });
  };
  return (
    <fieldset className="physics-chooser" data-testid="physics-chooser">
      <legend>Physics</legend>
      <div className="segmented">
        {PHYSICS_FAMILIES.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={form.physics === f.id}
            className={form.physics === f.id ? 'active' : ''}
            data-testid={`physics-${f.id}`}
            onClick={() => choose(f.id)}
          >
            {f.label}
            {!familyAvailable(f.id) && <span className="muted"> (soon)</span>}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** What a family whose solver has not landed will do; the Run button says it cannot run yet. */
export function ComingSoon({ family }: { family: PhysicsFamily }) {
  const f = PHYSICS_FAMILIES.find((x) => x.id === family);
  if (!f) return null;
  return (
    <div className="coming-soon" data-testid={`coming-${family}`}>
      <p>
        <strong>{f.label} analysis is coming.</strong> {f.coming}
      </p>
      <p className="muted">Choose Electromagnetic or another available physics to run an analysis now.</p>
    </div>
  );
}
