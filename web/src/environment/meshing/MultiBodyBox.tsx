import { materialsLibrary } from '../config/materials-library.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { isMultiBodyModel } from '../workflows/load-file.ts';

/** Multi-body models: the yellow notice, each body with its name, visibility and material. */
export function MultiBodyBox() {
  const { store, bridge } = useServices();
  const model = useEnv((s) => s.model);
  const bodies = useEnv((s) => s.bodies);
  const materials = useEnv((s) => s.form.bodyMaterials);
  if (!isMultiBodyModel(model) || bodies.length === 0) return null;
  const setVisible = (region: number, visible: boolean) => {
    store.set((s) => ({ bodies: s.bodies.map((b) => (b.region === region ? { ...b, visible } : b)) }));
    bridge.call('setBodyVisibility', region, visible);
  };
  const setMaterial = (region: number, id: string) =>
    store.set((s) => {
      const next = { ...s.form.bodyMaterials };
      if (id) next[region] = id;
      else delete next[region];
      return { form: { ...s.form, bodyMaterials: next } };
    });
  return (
    <div className="multibody" data-testid="multibody-box">
      <div className="message warn">
        Multi-body model: {bodies.length} bodies. Each body is meshed as its own region; give every body a
        material below (unassigned bodies use the default material).
      </div>
      <ul className="body-list">
        {bodies.map((b) => (
          <li key={b.region}>
            <label className="checkbox" title={b.visible ? 'Hide body' : 'Show body'}>
              <input
                type="checkbox"
                checked={b.visible}
                aria-label={`Show ${b.name}`}
                onChange={(e) => setVisible(b.region, e.target.checked)}
              />
              <span className="body-name">{b.name}</span>
            </label>
            <select
              aria-label={`Material of ${b.name}`}
              value={materials[b.region] ?? ''}
              onChange={(e) => setMaterial(b.region, e.target.value)}
            >
              <option value="">Default material</option>
              {materialsLibrary().map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </li>
        ))}
      </ul>
    </div>
  );
}
