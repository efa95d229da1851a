import { materialById, materialsLibrary } from '../../config/materials-library.ts';
import { useForm } from '../../config/use-form.ts';
import { Checkbox, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { TripleInput } from '../../ui/TripleInput.tsx';
import { newEmRows } from './em-form.ts';

const EPS0 = 8.854e-12;
const MU0 = 4 * Math.PI * 1e-7;

/** Default (absolute) material properties, a library quick-fill, and the optional anisotropic list. */
export function MaterialsGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  const fillFromLibrary = (id: string) => {
    const m = materialById(id);
    set({
      defaultPermittivity: String(+(m.relativePermittivity * EPS0).toPrecision(6)),
      defaultPermeability: String(+(m.relativePermeability * MU0).toPrecision(8)),
      defaultConductivity: String(m.conductivity),
    });
  };
  return (
    <Section title="Materials" testId="group-materials">
      <div className="field">
        <label htmlFor="material-fill">Fill defaults from library</label>
        <select
          id="material-fill"
          value=""
          onChange={(e) => e.target.value && fillFromLibrary(e.target.value)}
        >
          <option value="">Choose a material…</option>
          {materialsLibrary().map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} (εr {m.relativePermittivity}, σ {m.conductivity} S/m)
            </option>
          ))}
        </select>
      </div>
      <div className="row2">
        <TextField
          label="Permittivity"
          unit="F/m"
          value={form.defaultPermittivity}
          onChange={(v) => set({ defaultPermittivity: v })}
        />
        <TextField
          label="Permeability"
          unit="H/m"
          value={form.defaultPermeability}
          onChange={(v) => set({ defaultPermeability: v })}
        />
        <TextField
          label="Conductivity"
          unit="S/m"
          value={form.defaultConductivity}
          onChange={(v) => set({ defaultConductivity: v })}
        />
      </div>
      {/* Spec 001 §2 lists them here, but no electromagnetic solver reads them (docs/conventions.md): folded
          away and named as the thermal inputs, so water's 1000 / 4186 are not read as the model's material
          (qa29). Their values are sent unchanged. */}
      <details className="thermal-inputs" data-testid="em-thermal-inputs">
        <summary>Thermal coupling inputs (not used by the electromagnetic solvers)</summary>
        <p className="hint">
          Read only by a thermal analysis, as the default ρc of a transient (e.g. Joule-heated) run; a body's
          library material takes precedence.
        </p>
        <div className="row2">
          <TextField
            label="Density"
            unit="kg/m³"
            value={form.density}
            onChange={(v) => set({ density: v })}
          />
          <TextField
            label="Heat capacity"
            unit="J/(kg·K)"
            value={form.heatCapacity}
            onChange={(v) => set({ heatCapacity: v })}
          />
        </div>
      </details>
      <Checkbox
        label="Anisotropic materials"
        checked={form.useAnisotropicMaterials}
        onChange={(on) => set({ useAnisotropicMaterials: on })}
      />
      {form.useAnisotropicMaterials && (
        <div className="rows">
          {form.anisotropicMaterials.map((m) => (
            <div className="row-card" key={m.key}>
              <div className="row-head">
                <TextField
                  label="Body (index or name)"
                  value={m.id}
                  onChange={(v) => setRow('anisotropicMaterials', m.key, { id: v })}
                />
                <button
                  type="button"
                  className="icon"
                  title="Remove"
                  onClick={() => removeRow('anisotropicMaterials', m.key)}
                >
                  ✕
                </button>
              </div>
              <TripleInput
                label="εr"
                value={m.permittivity}
                onChange={(t) => setRow('anisotropicMaterials', m.key, { permittivity: t })}
              />
              <TripleInput
                label="μr"
                value={m.permeability}
                onChange={(t) => setRow('anisotropicMaterials', m.key, { permeability: t })}
              />
              <TripleInput
                label="σ S/m"
                value={m.conductivity}
                onChange={(t) => setRow('anisotropicMaterials', m.key, { conductivity: t })}
              />
            </div>
          ))}
          <button
            type="button"
            className="add"
            onClick={() =>
              addRow('anisotropicMaterials', newEmRows.anisotropic(form.anisotropicMaterials.length))
            }
          >
            + Add anisotropic material
          </button>
        </div>
      )}
    </Section>
  );
}
