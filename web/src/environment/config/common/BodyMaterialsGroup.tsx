import { useEnv } from '../../state/EnvironmentContext.tsx';
import { Section } from '../../ui/Section.tsx';
import { materialsLibrary } from '../materials-library.ts';
import { useForm } from '../use-form.ts';
import {
  bodyMaterial,
  FAMILY_DEFAULT_MATERIAL,
  type MaterialProperty,
  PROPERTY_LABELS,
} from './body-materials.ts';

/** Material per body from the library, with the family's properties shown and open to override. `assumed`:
 * what the run takes for a body without a choice, when that is not the family's default, and why (shown). */
export function BodyMaterialsGroup({
  properties,
  assumed = {},
}: {
  properties: readonly MaterialProperty[];
  assumed?: Record<number, { id: string; reason: string }>;
}) {
  const { form, set } = useForm();
  const bodies = useEnv((s) => s.bodies);
  const list = bodies.length > 0 ? bodies : [{ region: 0, name: 'Body 1', visible: true }];
  return (
    <Section title="Materials" badge={String(list.length)} testId="group-body-materials">
      {list.map((body) => {
        const guess = form.bodyMaterials[body.region] === undefined ? assumed[body.region] : undefined;
        const m = bodyMaterial(form.bodyMaterials, guess?.id ?? FAMILY_DEFAULT_MATERIAL, body.region);
        const typed = form.bodyOverrides[body.region] ?? {};
        return (
          <div className="row-card" key={body.region} data-testid={`body-material-${body.region}`}>
            <div className="field">
              <label htmlFor={`body-material-${body.region}`}>{body.name}</label>
              <select
                id={`body-material-${body.region}`}
                value={m.id}
                onChange={(e) =>
                  set({
                    bodyMaterials: { ...form.bodyMaterials, [body.region]: e.target.value },
                    bodyOverrides: { ...form.bodyOverrides, [body.region]: {} },
                  })
                }
              >
                {materialsLibrary().map((lib) => (
                  <option key={lib.id} value={lib.id}>
                    {lib.label}
                  </option>
                ))}
              </select>
              {guess && (
                <span className="small muted" data-testid={`body-material-assumed-${body.region}`}>
                  Assumed {m.label}: {guess.reason}. Choose another above to change it.
                </span>
              )}
            </div>
            <div className="row2">
              {properties.map((p) => {
                const { label, unit } = PROPERTY_LABELS[p];
                const id = `body-${body.region}-${p}`;
                return (
                  <div className="field" key={p}>
                    <label htmlFor={id}>{label}</label>
                    <div className="field-input">
                      <input
                        id={id}
                        inputMode="decimal"
                        value={typed[p] ?? ''}
                        placeholder={m[p] !== undefined ? String(m[p]) : 'not published'}
                        onChange={(e) =>
                          set({
                            bodyOverrides: {
                              ...form.bodyOverrides,
                              [body.region]: { ...typed, [p]: e.target.value },
                            },
                          })
                        }
                      />
                      {unit && <span className="unit">{unit}</span>}
                    </div>
                  </div>
                );
              })}
            </div>
          </div>
        );
      })}
    </Section>
  );
}
