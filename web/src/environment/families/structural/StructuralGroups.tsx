import type { MeshOrder } from '../../config/analysis-form.ts';
import { BodyMaterialsGroup } from '../../config/common/BodyMaterialsGroup.tsx';
import { SolverGroup, SPD_SOLVERS } from '../../config/common/SolverGroup.tsx';
import { FaceListInput } from '../../config/FaceListInput.tsx';
import { parseFaceList } from '../../config/face-list.ts';
import { parseNumber } from '../../config/numbers.ts';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { newStructuralRows } from './structural-form.ts';
import { TemperatureGroup } from './TemperatureGroup.tsx';

const AXES = ['x', 'y', 'z'] as const;

/** The structural form (docs/structural.md): materials per body, supports and loads on picked faces,
 * gravity, the temperature that loads it (docs/multiphysics.md §7), element order, solver. */
export function StructuralGroups() {
  const { form } = useForm();
  const thermal = form.structuralTemperatureFrom !== 'none';
  return (
    <>
      <SupportsGroup />
      <LoadsGroup />
      <TemperatureGroup />
      <BodyMaterialsGroup
        properties={[
          'youngsModulus',
          'poissonRatio',
          'density',
          ...(thermal ? (['thermalExpansion'] as const) : []),
          'yieldStrength',
        ]}
      />
      <StructuralOrderGroup />
      <SolverGroup solvers={SPD_SOLVERS} />
    </>
  );
}

export function SupportsGroup() {
  const { form, setRow, addRow, removeRow } = useForm();
  return (
    <Section
      title="Supports"
      defaultOpen
      badge={form.structuralSupports.length || undefined}
      testId="group-supports"
    >
      <div className="rows">
        {form.structuralSupports.map((s, i) => (
          <div className="row-card" key={s.key} data-testid={`support-${i}`}>
            <div className="row-head">
              <TextField
                label="Name"
                inputMode="text"
                value={s.name}
                onChange={(v) => setRow('structuralSupports', s.key, { name: v })}
              />
              <Select<'fixed' | 'displacement'>
                label="Kind"
                value={s.kind}
                options={[
                  { value: 'fixed', label: 'Fixed (all components 0)' },
                  { value: 'displacement', label: 'Prescribed displacement' },
                ]}
                testId={`support-${i}-kind`}
                onChange={(v) => setRow('structuralSupports', s.key, { kind: v })}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('structuralSupports', s.key)}
              >
                ✕
              </button>
            </div>
            <FaceListInput
              value={s.faces}
              onChange={(v) => setRow('structuralSupports', s.key, { faces: v })}
              target={{ list: 'structuralSupports', key: s.key }}
              testId={`support-${i}-faces`}
            />
            {s.kind === 'displacement' && (
              <div className="row3">
                {AXES.map((axis, k) => (
                  <TextField
                    key={axis}
                    label={`u${axis}`}
                    unit="m"
                    value={s.displacement[k] ?? ''}
                    placeholder="free"
                    invalid={
                      (s.displacement[k] ?? '').trim() !== '' &&
                      parseNumber(s.displacement[k] ?? '') === undefined
                    }
                    onChange={(v) => {
                      const next = [...s.displacement] as typeof s.displacement;
                      next[k] = v;
                      setRow('structuralSupports', s.key, { displacement: next });
                    }}
                  />
                ))}
              </div>
            )}
            {s.kind === 'displacement' && (
              <small className="hint">
                Blank components are free (a symmetry plane holds only its normal component).
              </small>
            )}
            {parseFaceList(s.faces).length === 0 && (
              <small className="hint warn">No faces yet: this support is not sent.</small>
            )}
          </div>
        ))}
      </div>
      <button
        type="button"
        className="add"
        data-testid="add-support"
        onClick={() =>
          addRow('structuralSupports', newStructuralRows.support(form.structuralSupports.length))
        }
      >
        + Add support
      </button>
    </Section>
  );
}

export function LoadsGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  return (
    <Section title="Loads" defaultOpen badge={form.structuralLoads.length || undefined} testId="group-loads">
      <div className="rows">
        {form.structuralLoads.map((l, i) => (
          <div className="row-card" key={l.key} data-testid={`load-${i}`}>
            <div className="row-head">
              <TextField
                label="Name"
                inputMode="text"
                value={l.name}
                onChange={(v) => setRow('structuralLoads', l.key, { name: v })}
              />
              <Select<'force' | 'pressure'>
                label="Kind"
                value={l.kind}
                options={[
                  { value: 'force', label: 'Force (total, spread by area)' },
                  { value: 'pressure', label: 'Pressure (into the body)' },
                ]}
                testId={`load-${i}-kind`}
                onChange={(v) => setRow('structuralLoads', l.key, { kind: v })}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('structuralLoads', l.key)}
              >
                ✕
              </button>
            </div>
            <FaceListInput
              value={l.faces}
              onChange={(v) => setRow('structuralLoads', l.key, { faces: v })}
              target={{ list: 'structuralLoads', key: l.key }}
              testId={`load-${i}-faces`}
            />
            {l.kind === 'force' ? (
              <div className="row3">
                {AXES.map((axis, k) => (
                  <TextField
                    key={axis}
                    label={`F${axis}`}
                    unit="N"
                    value={l.force[k] ?? ''}
                    invalid={parseNumber(l.force[k] ?? '') === undefined}
                    testId={`load-${i}-f${axis}`}
                    onChange={(v) => {
                      const next = [...l.force] as typeof l.force;
                      next[k] = v;
                      setRow('structuralLoads', l.key, { force: next });
                    }}
                  />
                ))}
              </div>
            ) : (
              <TextField
                label="Pressure"
                unit="Pa"
                value={l.pressure}
                invalid={parseNumber(l.pressure) === undefined}
                onChange={(v) => setRow('structuralLoads', l.key, { pressure: v })}
              />
            )}
            {parseFaceList(l.faces).length === 0 && (
              <small className="hint warn">No faces yet: this load is not sent.</small>
            )}
          </div>
        ))}
      </div>
      <button
        type="button"
        className="add"
        data-testid="add-load"
        onClick={() => addRow('structuralLoads', newStructuralRows.load(form.structuralLoads.length))}
      >
        + Add load
      </button>
      <Checkbox label="Gravity" checked={form.gravityOn} onChange={(on) => set({ gravityOn: on })} />
      {form.gravityOn && (
        <div className="row3">
          {AXES.map((axis, k) => (
            <TextField
              key={axis}
              label={`g${axis}`}
              unit="m/s²"
              value={form.gravity[k] ?? ''}
              onChange={(v) => {
                const next = [...form.gravity] as typeof form.gravity;
                next[k] = v;
                set({ gravity: next });
              }}
            />
          ))}
        </div>
      )}
    </Section>
  );
}

export function StructuralOrderGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Element order" badge={`p${form.meshOrder}`} testId="group-order">
      <Select<MeshOrder>
        label="Element order"
        value={form.meshOrder}
        options={[
          { value: 1, label: '1 (linear)' },
          { value: 2, label: '2 (quadratic, recommended)' },
          { value: 3, label: '3 (cubic)' },
        ]}
        onChange={(v) => set({ meshOrder: v })}
        testId="mesh-order"
      />
      <small className="hint">
        Linear tetrahedra lock in bending (they are too stiff), so displacements and stresses come out low;
        order 2 is accurate for most parts.
      </small>
      <Checkbox
        label="Curved geometry"
        checked={form.useCurvedGeometry}
        onChange={(on) => set({ useCurvedGeometry: on })}
      />
    </Section>
  );
}
