import { FaceListInput } from '../../config/FaceListInput.tsx';
import { parseFaceList } from '../../config/face-list.ts';
import { parseInteger, parseNumber } from '../../config/numbers.ts';
import { useForm } from '../../config/use-form.ts';
import { TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { newEmRows } from './em-form.ts';

/** Dirichlet (face groups and node/voltage pairs), Neumann, impedance and the reference node. */
export function BoundaryGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  const count =
    form.dirichletFaceGroups.length +
    form.dirichletNodes.length +
    form.neumann.length +
    form.impedance.length;
  return (
    <Section
      title="Boundary conditions"
      defaultOpen
      badge={count ? String(count) : undefined}
      testId="group-boundaries"
    >
      <h4>Dirichlet — fixed potential on faces</h4>
      <div className="rows">
        {form.dirichletFaceGroups.map((g, i) => (
          <div className="row-card" key={g.key} data-testid={`dirichlet-group-${i}`}>
            <div className="row-head">
              <TextField
                label="Name"
                inputMode="text"
                value={g.name}
                onChange={(v) => setRow('dirichletFaceGroups', g.key, { name: v })}
              />
              <TextField
                label="Voltage"
                unit="V"
                value={g.voltage}
                invalid={parseNumber(g.voltage) === undefined}
                onChange={(v) => setRow('dirichletFaceGroups', g.key, { voltage: v })}
                testId={`dirichlet-group-${i}-voltage`}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('dirichletFaceGroups', g.key)}
              >
                ✕
              </button>
            </div>
            <FaceListInput
              value={g.faces}
              onChange={(v) => setRow('dirichletFaceGroups', g.key, { faces: v })}
              target={{ list: 'dirichletFaceGroups', key: g.key }}
              testId={`dirichlet-group-${i}-faces`}
            />
            {parseFaceList(g.faces).length === 0 && (
              <small className="hint warn">No faces yet: this group is not sent.</small>
            )}
          </div>
        ))}
        <button
          type="button"
          className="add"
          data-testid="add-dirichlet-group"
          onClick={() =>
            addRow('dirichletFaceGroups', newEmRows.dirichletFaceGroup(form.dirichletFaceGroups.length))
          }
        >
          + Add face group
        </button>
      </div>

      <h4>Dirichlet — node and voltage</h4>
      <div className="rows">
        {form.dirichletNodes.map((n) => {
          const incomplete = parseInteger(n.node) === undefined || parseNumber(n.voltage) === undefined;
          return (
            <div className="row-inline" key={n.key}>
              <TextField
                label="Node id"
                inputMode="numeric"
                value={n.node}
                onChange={(v) => setRow('dirichletNodes', n.key, { node: v })}
              />
              <TextField
                label="Voltage"
                unit="V"
                value={n.voltage}
                onChange={(v) => setRow('dirichletNodes', n.key, { voltage: v })}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('dirichletNodes', n.key)}
              >
                ✕
              </button>
              {incomplete && <small className="hint warn">Needs both node and voltage.</small>}
            </div>
          );
        })}
        <button
          type="button"
          className="add"
          onClick={() => addRow('dirichletNodes', newEmRows.dirichletNode())}
        >
          + Add node
        </button>
      </div>

      <h4>Neumann — normal flux</h4>
      <div className="rows">
        {form.neumann.map((n) => (
          <div className="row-card" key={n.key}>
            <div className="row-head">
              <TextField
                label="Flux"
                value={n.flux}
                onChange={(v) => setRow('neumann', n.key, { flux: v })}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('neumann', n.key)}
              >
                ✕
              </button>
            </div>
            <FaceListInput
              value={n.faces}
              onChange={(v) => setRow('neumann', n.key, { faces: v })}
              target={{ list: 'neumann', key: n.key }}
            />
          </div>
        ))}
        <button type="button" className="add" onClick={() => addRow('neumann', newEmRows.neumann())}>
          + Add Neumann boundary
        </button>
      </div>

      <h4>Impedance</h4>
      <div className="rows">
        {form.impedance.map((z) => (
          <div className="row-card" key={z.key}>
            <div className="row-head">
              <TextField
                label="Real"
                unit="Ω"
                value={z.real}
                onChange={(v) => setRow('impedance', z.key, { real: v })}
              />
              <TextField
                label="Imaginary"
                unit="Ω"
                value={z.imag}
                onChange={(v) => setRow('impedance', z.key, { imag: v })}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('impedance', z.key)}
              >
                ✕
              </button>
            </div>
            <FaceListInput
              value={z.faces}
              onChange={(v) => setRow('impedance', z.key, { faces: v })}
              target={{ list: 'impedance', key: z.key }}
            />
          </div>
        ))}
        <button type="button" className="add" onClick={() => addRow('impedance', newEmRows.impedance())}>
          + Add impedance boundary
        </button>
      </div>

      <TextField
        label="Reference node"
        inputMode="numeric"
        placeholder="none"
        value={form.referenceNode}
        onChange={(v) => set({ referenceNode: v })}
        hint="Grounds a floating model (0-based vertex id)."
      />
    </Section>
  );
}
