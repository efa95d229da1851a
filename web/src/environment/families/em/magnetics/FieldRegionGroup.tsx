import { AIR_PADDING_DEFAULT } from '@fieldline/contracts';
import { FaceListInput } from '../../../config/FaceListInput.tsx';
import { useForm } from '../../../config/use-form.ts';
import { Checkbox, Select, TextField } from '../../../ui/fields.tsx';
import { Section } from '../../../ui/Section.tsx';
import { TripleInput } from '../../../ui/TripleInput.tsx';
import { useBodyOptions } from './CoilsGroup.tsx';
import { type MagneticBoundaryType, newMagneticsRows } from './magnetics-form.ts';

/** Air around a bare device, and flux boundaries (symmetry planes) as face rows. */
export function AirAndBoundariesGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  return (
    <Section
      title="Air & flux boundaries"
      badge={String(form.magneticBoundaries.length)}
      testId="group-magnetic-boundaries"
    >
      <TextField
        label="Air padding"
        unit="× model radius"
        value={form.airPadding}
        invalid={!(Number(form.airPadding) >= 0 && Number(form.airPadding) <= 20)}
        onChange={(v) => set({ airPadding: v })}
        hint={`Air meshed around a device uploaded without it (default ${AIR_PADDING_DEFAULT}); 0: the model holds its own air.`}
        testId="air-padding"
      />
      <p className="hint">
        The model’s outer faces are flux-tangent (n·B = 0). A symmetry plane the flux crosses is flux-normal.
      </p>
      <div className="rows">
        {form.magneticBoundaries.map((row) => (
          <div className="row-card" key={row.key}>
            <div className="row-head">
              <Select<MagneticBoundaryType>
                label="Type"
                value={row.type}
                options={[
                  { value: 'flux-normal', label: 'Flux-normal (n×H = 0)' },
                  { value: 'flux-tangent', label: 'Flux-tangent (n·B = 0)' },
                ]}
                onChange={(v) => setRow('magneticBoundaries', row.key, { type: v })}
              />
              <button
                type="button"
                className="icon"
                title="Remove"
                onClick={() => removeRow('magneticBoundaries', row.key)}
              >
                ✕
              </button>
            </div>
            <FaceListInput
              value={row.faces}
              onChange={(v) => setRow('magneticBoundaries', row.key, { faces: v })}
              target={{ list: 'magneticBoundaries', key: row.key }}
            />
          </div>
        ))}
        <button
          type="button"
          className="add"
          onClick={() => addRow('magneticBoundaries', newMagneticsRows.boundary())}
        >
          + Add flux boundary
        </button>
      </div>
    </Section>
  );
}

/** Bodies whose force and torque are reported, and the torque axis. */
export function ForcesGroup() {
  const { form, set } = useForm();
  const bodies = useBodyOptions();
  const toggle = (region: number, on: boolean) =>
    set({
      forceBodies: on
        ? [...form.forceBodies.filter((r) => r !== region), region]
        : form.forceBodies.filter((r) => r !== region),
    });
  return (
    <Section title="Force & torque" badge={String(form.forceBodies.length)} testId="group-forces">
      <p className="hint">
        Force and torque by virtual work on the layer of elements round each body (keep air around it).
      </p>
      {bodies.map((b) => (
        <Checkbox
          key={b.value}
          label={b.label}
          checked={form.forceBodies.includes(Number(b.value))}
          onChange={(on) => toggle(Number(b.value), on)}
        />
      ))}
      <Checkbox
        label="Torque about an axis"
        checked={form.useTorqueAxis}
        onChange={(on) => set({ useTorqueAxis: on })}
      />
      {form.useTorqueAxis && (
        <>
          <TripleInput
            label="Point on the axis"
            value={form.torqueAxisOrigin}
            onChange={(t) => set({ torqueAxisOrigin: t })}
          />
          <TripleInput
            label="Direction"
            value={form.torqueAxisDirection}
            onChange={(t) => set({ torqueAxisDirection: t })}
          />
        </>
      )}
    </Section>
  );
}
