import { FaceListInput } from '../../../config/FaceListInput.tsx';
import { useForm } from '../../../config/use-form.ts';
import { useEnv } from '../../../state/EnvironmentContext.tsx';
import { Select, TextField } from '../../../ui/fields.tsx';
import { Section } from '../../../ui/Section.tsx';
import { TripleInput } from '../../../ui/TripleInput.tsx';
import {
  type CoilRouting,
  type CoilRow,
  type ConductorTerminals,
  newMagneticsRows,
  type SolidConductorRow,
} from './magnetics-form.ts';

const ROUTINGS: { value: CoilRouting; label: string }[] = [
  { value: 'closed', label: 'Ring around a hole (solenoid, racetrack)' },
  { value: 'wraps', label: 'Shell wrapping another body (toroid)' },
  { value: 'terminals', label: 'Open ends on faces (terminals)' },
];

/** The model's bodies as select options by index (a one-body model before its bodies are read: body 0). */
export function useBodyOptions(): { value: string; label: string }[] {
  const bodies = useEnv((s) => s.bodies);
  const list = bodies.length > 0 ? bodies : [{ region: 0, name: 'Body 1' }];
  return list.map((b) => ({ value: String(b.region), label: `${b.name} (${b.region})` }));
}

/** Coils: stranded windings filling a body, with turns, current and how the current goes round (§3). */
export function CoilsGroup({ eddy }: { eddy: boolean }) {
  const { form, set, setRow, addRow } = useForm();
  const bodies = useBodyOptions();
  const remove = (coil: CoilRow) =>
    set({
      coils: form.coils.filter((c) => c.key !== coil.key),
      coilTerminals: form.coilTerminals.filter((t) => t.coilKey !== coil.key),
    });
  const setRouting = (coil: CoilRow, routing: CoilRouting) => {
    const has = form.coilTerminals.some((t) => t.coilKey === coil.key);
    set({
      coils: form.coils.map((c) => (c.key === coil.key ? { ...c, routing } : c)),
      // an open coil gets its two terminal rows, picked on the model like any face list
      coilTerminals:
        routing === 'terminals' && !has
          ? [
              ...form.coilTerminals,
              newMagneticsRows.terminal(coil.key, 'in'),
              newMagneticsRows.terminal(coil.key, 'out'),
            ]
          : form.coilTerminals,
    });
  };
  return (
    <Section title="Coils" defaultOpen badge={String(form.coils.length)} testId="group-coils">
      <p className="hint">
        A coil is a winding filling a body: its turns carry the current ({eddy ? 'peak amplitude' : 'DC'}) and
        there are no eddy currents inside it.
      </p>
      <div className="rows">
        {form.coils.map((coil, i) => (
          <div className="row-card" key={coil.key} data-testid={`coil-${i}`}>
            <div className="row-head">
              <TextField
                label="Name"
                inputMode="text"
                value={coil.name}
                onChange={(v) => setRow('coils', coil.key, { name: v })}
              />
              <button type="button" className="icon" title="Remove" onClick={() => remove(coil)}>
                ✕
              </button>
            </div>
            <Select
              label="Winding body"
              value={coil.body}
              options={bodies}
              onChange={(v) => setRow('coils', coil.key, { body: v })}
              testId={`coil-${i}-body`}
            />
            <div className="row2">
              <TextField
                label="Turns"
                inputMode="numeric"
                value={coil.turns}
                invalid={!(Number.isInteger(Number(coil.turns)) && Number(coil.turns) > 0)}
                onChange={(v) => setRow('coils', coil.key, { turns: v })}
                testId={`coil-${i}-turns`}
              />
              <TextField
                label="Current"
                unit="A"
                value={coil.current}
                onChange={(v) => setRow('coils', coil.key, { current: v })}
                testId={`coil-${i}-current`}
              />
              {eddy && (
                <TextField
                  label="Phase"
                  unit="°"
                  value={coil.phase}
                  onChange={(v) => setRow('coils', coil.key, { phase: v })}
                />
              )}
            </div>
            <Select<CoilRouting>
              label="Current path"
              value={coil.routing}
              options={ROUTINGS}
              onChange={(v) => setRouting(coil, v)}
              testId={`coil-${i}-routing`}
            />
            {coil.routing === 'closed' && (
              <>
                <TripleInput
                  label="Axis"
                  value={coil.axis}
                  placeholder="auto"
                  onChange={(t) => setRow('coils', coil.key, { axis: t })}
                />
                <small className="hint">
                  The current circulates right-handed about the axis; blank: the engine finds the hole’s axis.
                </small>
              </>
            )}
            {coil.routing === 'wraps' && (
              <Select
                label="Wraps body"
                value={coil.wraps}
                options={[{ value: '', label: 'Choose the body it winds around…' }, ...bodies]}
                onChange={(v) => setRow('coils', coil.key, { wraps: v })}
              />
            )}
            {coil.routing === 'terminals' &&
              form.coilTerminals
                .filter((t) => t.coilKey === coil.key)
                .map((t) => (
                  <FaceListInput
                    key={t.key}
                    label={t.side === 'in' ? 'Current enters at faces' : 'Current leaves at faces'}
                    value={t.faces}
                    onChange={(v) => setRow('coilTerminals', t.key, { faces: v })}
                    target={{ list: 'coilTerminals', key: t.key }}
                    testId={`coil-${i}-terminal-${t.side}`}
                  />
                ))}
          </div>
        ))}
        <button
          type="button"
          className="add"
          data-testid="add-coil"
          onClick={() => addRow('coils', newMagneticsRows.coil(form.coils.length, bodies[0]?.value ?? '0'))}
        >
          + Add coil
        </button>
      </div>
    </Section>
  );
}

const CONDUCTOR_TERMINALS: { value: ConductorTerminals; label: string }[] = [
  { value: 'auto', label: 'Found: its boundary patches, or round a ring' },
  { value: 'picked', label: 'Faces picked on the model' },
];

/** Massive conductors fed a total current (eddy currents: skin and proximity effect inside; magnetostatics:
 * spread as DC conduction spreads it). */
export function SolidConductorsGroup({ eddy }: { eddy: boolean }) {
  const { form, set, setRow, addRow } = useForm();
  const bodies = useBodyOptions();
  const remove = (row: SolidConductorRow) =>
    set({
      solidConductors: form.solidConductors.filter((s) => s.key !== row.key),
      conductorTerminals: form.conductorTerminals.filter((t) => t.conductorKey !== row.key),
    });
  const setTerminals = (row: SolidConductorRow, terminals: ConductorTerminals) => {
    const has = form.conductorTerminals.some((t) => t.conductorKey === row.key);
    set({
      solidConductors: form.solidConductors.map((s) => (s.key === row.key ? { ...s, terminals } : s)),
      // picked ends get their two face rows, as an open coil's do
      conductorTerminals:
        terminals === 'picked' && !has
          ? [
              ...form.conductorTerminals,
              newMagneticsRows.conductorTerminal(row.key, 'in'),
              newMagneticsRows.conductorTerminal(row.key, 'out'),
            ]
          : form.conductorTerminals,
    });
  };
  return (
    <Section
      title="Solid conductors"
      badge={String(form.solidConductors.length)}
      testId="group-solid-conductors"
    >
      <div className="rows">
        {form.solidConductors.map((s, i) => (
          <div className="row-card" key={s.key} data-testid={`solid-conductor-${i}`}>
            <div className="row-head">
              <TextField
                label="Name"
                inputMode="text"
                value={s.name}
                onChange={(v) => setRow('solidConductors', s.key, { name: v })}
              />
              <button type="button" className="icon" title="Remove" onClick={() => remove(s)}>
                ✕
              </button>
            </div>
            <Select
              label="Body"
              value={s.body}
              options={bodies}
              onChange={(v) => setRow('solidConductors', s.key, { body: v })}
            />
            <div className="row2">
              <TextField
                label={eddy ? 'Total current (peak)' : 'Total current (DC)'}
                unit="A"
                value={s.current}
                onChange={(v) => setRow('solidConductors', s.key, { current: v })}
              />
              {eddy && (
                <TextField
                  label="Phase"
                  unit="°"
                  value={s.phase}
                  onChange={(v) => setRow('solidConductors', s.key, { phase: v })}
                />
              )}
            </div>
            <Select<ConductorTerminals>
              label="Current enters and leaves"
              value={s.terminals}
              options={CONDUCTOR_TERMINALS}
              onChange={(v) => setTerminals(s, v)}
              testId={`solid-conductor-${i}-terminals`}
            />
            {s.terminals === 'auto' && (
              <small className="hint">
                The engine feeds it where it meets the model’s boundary, when that is two separate patches.
                Otherwise it must be a closed ring round a hole (a shorted turn, a single-turn loop): the
                current circulates round the hole, right-handed about the ring’s axis. A ring on the model’s
                outside needs air: set the air padding.
              </small>
            )}
            {s.terminals === 'picked' &&
              form.conductorTerminals
                .filter((t) => t.conductorKey === s.key)
                .map((t) => (
                  <FaceListInput
                    key={t.key}
                    label={t.side === 'in' ? 'Current enters at faces' : 'Current leaves at faces'}
                    value={t.faces}
                    onChange={(v) => setRow('conductorTerminals', t.key, { faces: v })}
                    target={{ list: 'conductorTerminals', key: t.key }}
                    testId={`solid-conductor-${i}-terminal-${t.side}`}
                  />
                ))}
          </div>
        ))}
        <button
          type="button"
          className="add"
          onClick={() =>
            addRow(
              'solidConductors',
              newMagneticsRows.solidConductor(form.solidConductors.length, bodies[0]?.value ?? '0'),
            )
          }
        >
          + Add solid conductor
        </button>
      </div>
    </Section>
  );
}
