import type { MeshOrder } from '../../config/analysis-form.ts';
import { BodyMaterialsGroup } from '../../config/common/BodyMaterialsGroup.tsx';
import { ChainSourcePicker } from '../../config/common/ChainSourcePicker.tsx';
import { ProbeRows } from '../../config/common/ProbeRows.tsx';
import { SolverGroup, SPD_SOLVERS } from '../../config/common/SolverGroup.tsx';
import { FaceListInput } from '../../config/FaceListInput.tsx';
import { parseFaceList } from '../../config/face-list.ts';
import { parseNumber } from '../../config/numbers.ts';
import { useForm } from '../../config/use-form.ts';
import { useEnv } from '../../state/EnvironmentContext.tsx';
import { Checkbox, Select, TextField } from '../../ui/fields.tsx';
import { Section } from '../../ui/Section.tsx';
import { newEmRows } from '../em/em-form.ts';
import { InductionSettings, InductionSourceGroups, useInductionAssumed } from './InductionHeating.tsx';
import {
  CONDITION_UNITS,
  heatingProperties,
  newThermalRows,
  type ThermalConditionKind,
} from './thermal-form.ts';

/** °C beside a temperature typed in kelvin. */
function celsius(text: string): string | undefined {
  const k = parseNumber(text);
  return k === undefined ? undefined : `= ${+(k - 273.15).toFixed(2)} °C`;
}

/** The thermal form (docs/thermal.md): conditions on picked faces, heat sources, Joule and induction heating
 * (with the EM form's coils, solid conductors and flux boundaries), materials, transient settings, order and
 * solver. */
export function ThermalGroups() {
  const { form } = useForm();
  const assumed = useInductionAssumed();
  return (
    <>
      <ConditionsGroup />
      <SourcesGroup />
      {form.inductionHeating && <InductionSourceGroups />}
      <BodyMaterialsGroup properties={heatingProperties(form)} assumed={assumed} />
      <ThermalTransientGroup />
      <ThermalOrderGroup />
      <SolverGroup solvers={SPD_SOLVERS} />
    </>
  );
}

export function ConditionsGroup() {
  const { form, setRow, addRow, removeRow } = useForm();
  return (
    <Section
      title="Boundary conditions"
      defaultOpen
      badge={form.thermalConditions.length || undefined}
      testId="group-thermal-conditions"
    >
      <p className="small muted">Faces without a condition are insulated. Temperatures in kelvin.</p>
      <div className="rows">
        {form.thermalConditions.map((c, i) => {
          const units = CONDITION_UNITS[c.kind];
          return (
            <div className="row-card" key={c.key} data-testid={`thermal-condition-${i}`}>
              <div className="row-head">
                <TextField
                  label="Name"
                  inputMode="text"
                  value={c.name}
                  onChange={(v) => setRow('thermalConditions', c.key, { name: v })}
                />
                <Select<ThermalConditionKind>
                  label="Kind"
                  value={c.kind}
                  options={[
                    { value: 'temperature', label: 'Fixed temperature' },
                    { value: 'flux', label: 'Heat flux' },
                    { value: 'convection', label: 'Convection' },
                    { value: 'radiation', label: 'Radiation' },
                  ]}
                  testId={`thermal-condition-${i}-kind`}
                  onChange={(v) =>
                    setRow('thermalConditions', c.key, { kind: v, value: CONDITION_UNITS[v].start })
                  }
                />
                <button
                  type="button"
                  className="icon"
                  title="Remove"
                  onClick={() => removeRow('thermalConditions', c.key)}
                >
                  ✕
                </button>
              </div>
              <FaceListInput
                value={c.faces}
                onChange={(v) => setRow('thermalConditions', c.key, { faces: v })}
                target={{ list: 'thermalConditions', key: c.key }}
                testId={`thermal-condition-${i}-faces`}
              />
              <div className="row2">
                <TextField
                  label={units.label}
                  unit={units.unit}
                  value={c.value}
                  invalid={parseNumber(c.value) === undefined}
                  hint={c.kind === 'temperature' ? celsius(c.value) : undefined}
                  testId={`thermal-condition-${i}-value`}
                  onChange={(v) => setRow('thermalConditions', c.key, { value: v })}
                />
                {(c.kind === 'convection' || c.kind === 'radiation') && (
                  <TextField
                    label="Ambient"
                    unit="K"
                    value={c.ambient}
                    hint={celsius(c.ambient)}
                    testId={`thermal-condition-${i}-ambient`}
                    onChange={(v) => setRow('thermalConditions', c.key, { ambient: v })}
                  />
                )}
              </div>
              {parseFaceList(c.faces).length === 0 && (
                <small className="hint warn">No faces yet: this condition is not sent.</small>
              )}
            </div>
          );
        })}
      </div>
      <button
        type="button"
        className="add"
        data-testid="add-thermal-condition"
        onClick={() => addRow('thermalConditions', newThermalRows.condition(form.thermalConditions.length))}
      >
        + Add condition
      </button>
    </Section>
  );
}

export function SourcesGroup() {
  const { form, set, setRow, addRow, removeRow } = useForm();
  const bodies = useEnv((s) => s.bodies);
  return (
    <Section title="Heat sources" badge={form.heatSources.length || undefined} testId="group-heat-sources">
      <Checkbox
        label="Joule heating from the current (DC conduction solve)"
        checked={form.jouleHeating}
        onChange={(on) => set({ jouleHeating: on })}
      />
      {form.jouleHeating && <VoltageTerminals />}
      <Checkbox
        label="Induction heating from eddy currents (eddy-current solve)"
        checked={form.inductionHeating}
        onChange={(on) => set({ inductionHeating: on })}
        testId="induction-heating"
      />
      {form.inductionHeating && <InductionSettings />}
      <div className="rows">
        {form.heatSources.map((s) => (
          <div className="row-inline" key={s.key}>
            <Select<string>
              label="Body"
              value={s.region}
              options={(bodies.length ? bodies : [{ region: 0, name: 'Body 1' }]).map((b) => ({
                value: String(b.region),
                label: b.name,
              }))}
              onChange={(v) => setRow('heatSources', s.key, { region: v })}
            />
            <Select<'power' | 'density'>
              label="As"
              value={s.kind}
              options={[
                { value: 'power', label: 'Power (W)' },
                { value: 'density', label: 'Density (W/m³)' },
              ]}
              onChange={(v) => setRow('heatSources', s.key, { kind: v })}
            />
            <TextField
              label="Value"
              unit={s.kind === 'power' ? 'W' : 'W/m³'}
              value={s.value}
              onChange={(v) => setRow('heatSources', s.key, { value: v })}
            />
            <button
              type="button"
              className="icon"
              title="Remove"
              onClick={() => removeRow('heatSources', s.key)}
            >
              ✕
            </button>
          </div>
        ))}
      </div>
      <button type="button" className="add" onClick={() => addRow('heatSources', newThermalRows.source())}>
        + Add heat source
      </button>
    </Section>
  );
}

/** The conduction solve's voltage terminals (the EM form's Dirichlet face groups). */
function VoltageTerminals() {
  const { form, setRow, addRow, removeRow } = useForm();
  return (
    <div className="rows" data-testid="joule-terminals">
      <p className="small muted">
        Voltages on face groups drive the current; the bodies' electrical conductivity is in Materials.
      </p>
      {form.dirichletFaceGroups.map((g, i) => (
        <div className="row-card" key={g.key} data-testid={`dirichlet-group-${i}`}>
          <div className="row-head">
            <TextField
              label="Voltage"
              unit="V"
              value={g.voltage}
              invalid={parseNumber(g.voltage) === undefined}
              testId={`dirichlet-group-${i}-voltage`}
              onChange={(v) => setRow('dirichletFaceGroups', g.key, { voltage: v })}
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
        + Add voltage terminal
      </button>
    </div>
  );
}

function ThermalTransientGroup() {
  const { form, set } = useForm();
  const units = useEnv((s) => s.model?.mesh.units ?? 'm');
  return (
    <Section
      title="Transient"
      badge={form.thermalTransient ? 'on' : undefined}
      testId="group-thermal-transient"
    >
      <Checkbox
        label="Transient (temperature over time)"
        checked={form.thermalTransient}
        onChange={(on) => set({ thermalTransient: on })}
      />
      {form.thermalTransient && (
        <Select<'value' | 'job'>
          label="Initial temperature from"
          value={form.thermalInitialFrom}
          options={[
            { value: 'value', label: 'A uniform temperature' },
            { value: 'job', label: 'A completed thermal run of this model' },
          ]}
          testId="thermal-initial-from"
          onChange={(v) => set({ thermalInitialFrom: v })}
        />
      )}
      {form.thermalTransient && form.thermalInitialFrom === 'job' ? (
        <ChainSourcePicker
          field="temperature"
          label="Start from"
          value={form.thermalInitialJob}
          onChange={(v) => set({ thermalInitialJob: v })}
          frame={form.thermalInitialFrame}
          onFrame={(v) => set({ thermalInitialFrame: v })}
          testId="thermal-initial-source"
        />
      ) : (
        <TextField
          label="Initial temperature"
          unit="K"
          value={form.initialTemperature}
          hint={celsius(form.initialTemperature)}
          onChange={(v) => set({ initialTemperature: v })}
        />
      )}
      {form.thermalTransient && (
        <>
          <div className="row2">
            <TextField
              label="Time step"
              unit="s"
              value={form.thermalTimeStep}
              onChange={(v) => set({ thermalTimeStep: v })}
            />
            <TextField
              label="End time"
              unit="s"
              value={form.thermalEndTime}
              onChange={(v) => set({ thermalEndTime: v })}
            />
          </div>
          <Select<'implicit' | 'newmark'>
            label="Time scheme"
            value={form.thermalScheme}
            options={[
              { value: 'newmark', label: 'Crank–Nicolson (newmark)' },
              { value: 'implicit', label: 'Backward Euler (implicit)' },
            ]}
            onChange={(v) => set({ thermalScheme: v })}
          />
          <h4>Probes ({units})</h4>
          <ProbeRows outsideOutcome="The run leaves this probe out." />
        </>
      )}
    </Section>
  );
}

function ThermalOrderGroup() {
  const { form, set } = useForm();
  return (
    <Section title="Element order" badge={`p${form.meshOrder}`} testId="group-order">
      <Select<MeshOrder>
        label="Element order"
        value={form.meshOrder}
        options={[
          { value: 1, label: '1 (linear)' },
          { value: 2, label: '2 (quadratic)' },
          { value: 3, label: '3 (cubic)' },
        ]}
        onChange={(v) => set({ meshOrder: v })}
        testId="mesh-order"
      />
      <Checkbox
        label="Curved geometry"
        checked={form.useCurvedGeometry}
        onChange={(on) => set({ useCurvedGeometry: on })}
      />
    </Section>
  );
}
