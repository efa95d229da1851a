import { bodyMaterialEntries, FAMILY_DEFAULT_MATERIAL } from '../../config/common/body-materials.ts';
import { materialById } from '../../config/materials-library.ts';
import { parseNumber } from '../../config/numbers.ts';
import { useForm } from '../../config/use-form.ts';
import { formatSI } from '../../results/quantities.ts';
import { useEnv } from '../../state/EnvironmentContext.tsx';
import { TextField } from '../../ui/fields.tsx';
import { CoilsGroup, SolidConductorsGroup } from '../em/magnetics/CoilsGroup.tsx';
import { AirAndBoundariesGroup } from '../em/magnetics/FieldRegionGroup.tsx';
import {
  assumedIds,
  inductionMagneticOverrides,
  inductionMaterialDefaults,
  inductionOverrides,
} from './induction-materials.ts';

const MU0 = 4e-7 * Math.PI;

/** Under the Induction heating switch: the frequency and which bodies carry eddy currents (their skin depth). */
export function InductionSettings() {
  const { form, set } = useForm();
  const stored = useEnv((s) => s.bodies);
  const bodies = stored.length > 0 ? stored : [{ region: 0, name: 'Body 1' }];
  const f = parseNumber(form.eddyFrequencyHz);
  const assumed = inductionMaterialDefaults(form, bodies);
  const entries = bodyMaterialEntries(
    bodies,
    form.bodyMaterials,
    inductionOverrides(form),
    ['conductivity', 'relativePermeability'],
    FAMILY_DEFAULT_MATERIAL,
    assumedIds(assumed),
  );
  const conductors = entries.flatMap((e) => {
    const sigma = typeof e.conductivity === 'number' ? e.conductivity : 0;
    const mu = typeof e.relativePermeability === 'number' ? e.relativePermeability : 1;
    if (!(sigma > 0)) return [];
    const delta = f && f > 0 ? 1 / Math.sqrt(Math.PI * f * MU0 * mu * sigma) : undefined;
    return [{ name: String(e.name), sigma, mu, delta }];
  });
  const fromEm = inductionMagneticOverrides(form);
  const typed = (region: number, p: 'conductivity' | 'relativePermeability') =>
    form.bodyOverrides[region]?.[p] !== undefined &&
    parseNumber(form.bodyOverrides[region]?.[p] ?? '') !== undefined;
  const magnetic = bodies.flatMap((b) => {
    const e = fromEm[b.region];
    if (!e) return [];
    const parts = [
      e.conductivity !== undefined &&
        !typed(b.region, 'conductivity') &&
        `σ ${formatSI(Number(e.conductivity), 'S/m', 3)}`,
      e.relativePermeability !== undefined &&
        !typed(b.region, 'relativePermeability') &&
        `μr ${e.relativePermeability}`,
    ].filter((x): x is string => typeof x === 'string');
    return parts.length > 0 ? [`${b.name} ${parts.join(', ')}`] : [];
  });
  const guesses = bodies.flatMap((b) => {
    const a = assumed[b.region];
    return a ? [{ name: b.name, label: materialById(a.id).label, reason: a.reason }] : [];
  });
  return (
    <div className="rows" data-testid="induction-settings">
      <TextField
        label="Frequency"
        unit="Hz"
        value={form.eddyFrequencyHz}
        invalid={!(f !== undefined && f > 0)}
        onChange={(v) => set({ eddyFrequencyHz: v })}
        testId="induction-frequency"
      />
      <p className="small muted">
        Coils and solid conductors (below) drive the field at this frequency, peak amplitudes; every body with
        an electrical conductivity in Materials carries eddy currents and heats by |J|²/2σ. A coil body with a
        conductivity adds its copper loss.
      </p>
      <ul className="small" data-testid="induction-conductors">
        {conductors.length === 0 && <li className="warn">No body conducts: nothing heats.</li>}
        {conductors.map((c) => (
          <li key={c.name}>
            {c.name}: σ {formatSI(c.sigma, 'S/m', 3)}, μr {c.mu}
            {c.delta !== undefined && `, skin depth ${formatSI(c.delta, 'm', 3)}`}
          </li>
        ))}
      </ul>
      {magnetic.length > 0 && (
        <p className="small muted" data-testid="induction-from-em">
          From the Electromagnetic form’s magnetic materials (what its eddy-current run uses):{' '}
          {magnetic.join('; ')}. They replace the conductivity and permeability of the body’s material; a
          value typed in Materials wins.
        </p>
      )}
      {guesses.length > 0 && (
        <p className="small muted" data-testid="induction-assumed">
          No material chosen, so assumed:{' '}
          {guesses.map((g) => `${g.name} ${g.label} (${g.reason})`).join('; ')}. Choose in Materials to
          change.
        </p>
      )}
    </div>
  );
}

/** Per body, the material the induction-heated run assumes where none was chosen (the Materials group shows it). */
export function useInductionAssumed() {
  const { form } = useForm();
  const stored = useEnv((s) => s.bodies);
  const bodies = stored.length > 0 ? stored : [{ region: 0, name: 'Body 1' }];
  return inductionMaterialDefaults(form, bodies);
}

/** The eddy-current sources and field region of an induction-heated run: the EM form's own groups. */
export function InductionSourceGroups() {
  return (
    <>
      <CoilsGroup eddy />
      <SolidConductorsGroup eddy />
      <AirAndBoundariesGroup />
    </>
  );
}
