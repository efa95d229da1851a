import { families, familyAvailable, familyById } from '../families/registry.ts';
import type { PhysicsFamily } from './analysis-form.ts';
import { useForm } from './use-form.ts';

/** One button per family (families/registry.ts, in their order): the family whose groups the form shows. */
export function PhysicsChooser() {
  const { form, set } = useForm();
  const choose = (id: PhysicsFamily) => {
    // A family may need a higher element order (linear tetrahedra lock in bending).
    const order = Math.max(familyById(id).minMeshOrder ?? 1, form.meshOrder) as 1 | 2 | 3;
    set({ physics: id, meshOrder: order });
  };
  return (
    <fieldset className="physics-chooser" data-testid="physics-chooser">
      <legend>Physics</legend>
      <div className="segmented">
        {families().map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={form.physics === f.id}
            className={form.physics === f.id ? 'active' : ''}
            data-testid={`physics-${f.id}`}
            onClick={() => choose(f.id as PhysicsFamily)}
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
export function ComingSoon({ family }: { family: string }) {
  const f = familyById(family);
  return (
    <div className="coming-soon" data-testid={`coming-${f.id}`}>
      <p>
        <strong>{f.label} analysis is coming.</strong> {f.blurb}
      </p>
      <p className="muted">Choose another available physics to run an analysis now.</p>
    </div>
  );
}
