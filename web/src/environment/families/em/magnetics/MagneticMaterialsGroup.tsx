import { BH_CURVES } from '@fieldline/contracts';
import { materialsLibrary } from '../../../config/materials-library.ts';
import { useForm } from '../../../config/use-form.ts';
import { lazyChart } from '../../../results/lazy-charts.tsx';
import { useEnv } from '../../../state/EnvironmentContext.tsx';
import { Select, TextField } from '../../../ui/fields.tsx';
import { Section } from '../../../ui/Section.tsx';
import { TripleInput } from '../../../ui/TripleInput.tsx';
import { readBhTable } from './bh-table.ts';
import { defaultMagneticBody, type MagneticBody } from './magnetics-form.ts';

// The plot draws with the line charts: their own chunk, fetched when a curve is first shown.
const BhCurvePlot = lazyChart(() => import('./BhCurvePlot.tsx').then((m) => m.BhCurvePlot));

type Kind = MagneticBody['kind'] | 'air';
const KINDS: { value: Kind; label: string }[] = [
  { value: 'air', label: 'Air / non-magnetic (μr 1)' },
  { value: 'linear', label: 'Linear (μr)' },
  { value: 'iron', label: 'Soft iron on a B–H curve' },
  { value: 'magnet', label: 'Permanent magnet (remanence)' },
];
const CURVES = [
  ...Object.entries(BH_CURVES).map(([id, c]) => ({ value: id, label: c.label })),
  { value: 'table', label: 'Pasted table [[H, B], …]' },
];

/** A library material's magnetic properties as a body's form entry (M-19 → its curve, N42 → Br along z). */
function fromLibrary(id: string, previous: MagneticBody | undefined): MagneticBody | null {
  const m = materialsLibrary().find((x) => x.id === id);
  if (!m) return null;
  const base = { ...defaultMagneticBody('linear'), conductivity: String(m.conductivity ?? 0) };
  if (m.bhCurve) return { ...base, kind: 'iron', curve: m.bhCurve };
  if (m.remanentFluxDensity) {
    // keep the direction the user gave, at the library magnet's Br
    const dir = (previous?.remanence ?? ['0', '0', '1']).map(Number);
    const norm = Math.hypot(...dir) || 1;
    const br = m.remanentFluxDensity;
    return {
      ...base,
      kind: 'magnet',
      relativePermeability: String(m.relativePermeability),
      remanence: dir.map((d) => String(+((br * d) / norm).toPrecision(6))) as MagneticBody['remanence'],
    };
  }
  return { ...base, relativePermeability: String(m.relativePermeability) };
}

/** Each body's magnetic material: air, μr, soft iron on a library or pasted B–H curve (plotted), or a magnet. */
export function MagneticMaterialsGroup({ eddy }: { eddy: boolean }) {
  const { form, set } = useForm();
  const stored = useEnv((s) => s.bodies);
  const bodies = stored.length > 0 ? stored : [{ region: 0, name: 'Body 1', visible: true }];
  const coilBodies = new Set(form.coils.map((c) => Number(c.body)));
  // a solid conductor needs its conductivity at DC too: its resistance and loss (docs/magnetics.md §3)
  const conductorBodies = new Set(form.solidConductors.map((s) => Number(s.body)));
  const update = (region: number, body: MagneticBody | null) => {
    const next = { ...form.magneticBodies };
    if (body) next[region] = body;
    else delete next[region];
    set({ magneticBodies: next });
  };
  return (
    <Section
      title="Magnetic materials"
      defaultOpen
      badge={String(bodies.length)}
      testId="group-magnetic-materials"
    >
      {bodies.map((b) => {
        const body = form.magneticBodies[b.region];
        const kind: Kind = body?.kind ?? 'air';
        const patch = (p: Partial<MagneticBody>) => body && update(b.region, { ...body, ...p });
        const table = body?.kind === 'iron' && body.curve === 'table' ? readBhTable(body.table) : null;
        const library = body?.kind === 'iron' && body.curve !== 'table' ? BH_CURVES[body.curve] : undefined;
        return (
          <div className="row-card" key={b.region} data-testid={`magnetic-body-${b.region}`}>
            <div className="row2">
              <Select<Kind>
                label={`${b.name}${coilBodies.has(b.region) ? ' (coil)' : ''}`}
                value={kind}
                options={KINDS}
                onChange={(k) =>
                  update(b.region, k === 'air' ? null : { ...defaultMagneticBody(k), ...pick(body, k) })
                }
                testId={`magnetic-body-${b.region}-kind`}
              />
              <div className="field">
                <label htmlFor={`magnetic-library-${b.region}`}>From library</label>
                <select
                  id={`magnetic-library-${b.region}`}
                  value=""
                  onChange={(e) => e.target.value && update(b.region, fromLibrary(e.target.value, body))}
                >
                  <option value="">Choose a material…</option>
                  {materialsLibrary().map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            {body && body.kind !== 'iron' && (
              <TextField
                label={body.kind === 'magnet' ? 'Recoil permeability μr' : 'Relative permeability μr'}
                value={body.relativePermeability}
                invalid={!(Number(body.relativePermeability) > 0)}
                onChange={(v) => patch({ relativePermeability: v })}
                testId={`magnetic-body-${b.region}-mur`}
              />
            )}
            {body?.kind === 'magnet' && (
              <>
                <TripleInput
                  label="Br (T)"
                  value={body.remanence}
                  onChange={(t) => patch({ remanence: t })}
                />
                <small className="hint">
                  The remanent flux density as a vector: its direction is the magnet’s (north pole towards
                  it).
                </small>
              </>
            )}
            {body?.kind === 'iron' && (
              <>
                <Select
                  label="B–H curve"
                  value={body.curve}
                  options={CURVES}
                  onChange={(v) => patch({ curve: v })}
                  testId={`magnetic-body-${b.region}-curve`}
                />
                {body.curve === 'table' && (
                  <div className={`field${table && 'error' in table ? ' field-invalid' : ''}`}>
                    <label htmlFor={`bh-table-${b.region}`}>Points: H (A/m), B (T)</label>
                    <textarea
                      id={`bh-table-${b.region}`}
                      rows={5}
                      spellCheck={false}
                      placeholder={'[[0, 0], [100, 0.8], [1000, 1.5]]\nor one "H, B" pair a line'}
                      value={body.table}
                      data-testid={`magnetic-body-${b.region}-table`}
                      onChange={(e) => patch({ table: e.target.value })}
                    />
                    {table && 'error' in table && (
                      <small className="hint bad" data-testid={`magnetic-body-${b.region}-table-error`}>
                        {table.error}
                      </small>
                    )}
                  </div>
                )}
                {library && (
                  <BhCurvePlot points={library.points} title={`${library.label}: B (T) against H`} />
                )}
                {table && 'points' in table && <BhCurvePlot points={table.points} title="B (T) against H" />}
                <small className="hint">
                  Beyond its last point the curve continues with slope μ0 (saturated).
                </small>
              </>
            )}
            {(eddy || conductorBodies.has(b.region)) && body && (
              <TextField
                label="Conductivity"
                unit="S/m"
                value={body.conductivity}
                onChange={(v) => patch({ conductivity: v })}
              />
            )}
          </div>
        );
      })}
    </Section>
  );
}

/** What a body keeps when its kind changes: its conductivity. */
function pick(body: MagneticBody | undefined, _kind: Kind): Partial<MagneticBody> {
  return body ? { conductivity: body.conductivity } : {};
}
