import type { AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm, Triple } from '../../../config/analysis-form.ts';
import { parseFaceList } from '../../../config/face-list.ts';
import { parseInteger, parseNumber } from '../../../config/numbers.ts';
import type { ToBackendContext } from '../../family-module.ts';
import { readBhTable } from './bh-table.ts';
import type { MagneticBody } from './magnetics-form.ts';

/** The analysis types of the magnetics form (docs/magnetics.md). */
export const MAGNETIC_ANALYSIS_TYPES = ['magnetostatic', 'eddy-current'] as const;
export type MagneticAnalysisType = (typeof MAGNETIC_ANALYSIS_TYPES)[number];
export const isMagneticType = (t: unknown): t is MagneticAnalysisType =>
  (MAGNETIC_ANALYSIS_TYPES as readonly unknown[]).includes(t);

const vector = (t: Triple): [number, number, number] | undefined => {
  const v = t.map((x) => parseNumber(x));
  return v.every((x) => x !== undefined) ? (v as [number, number, number]) : undefined;
};
const bodyIndex = (text: string): number | undefined => {
  const n = parseInteger(text);
  return n !== undefined && n >= 0 ? n : undefined;
};

/** A body's `bodyMaterials` magnetic properties; a pasted table that does not read is left out (the form says why). */
export function magneticMaterial(body: MagneticBody, eddy: boolean): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  const mu = parseNumber(body.relativePermeability);
  if (body.kind !== 'iron' && mu !== undefined && mu > 0) entry.relativePermeability = mu;
  if (body.kind === 'iron') {
    if (body.curve !== 'table') entry.bhCurve = body.curve;
    else {
      const read = readBhTable(body.table);
      if ('points' in read) entry.bhCurve = read.points;
    }
  }
  if (body.kind === 'magnet') {
    const br = vector(body.remanence);
    if (br) entry.remanence = br;
  }
  const sigma = parseNumber(body.conductivity);
  if (eddy && sigma !== undefined && sigma > 0) entry.conductivity = sigma;
  return entry;
}

/**
 * The magnetics keys of the backend config (contracts/src/analysis/magnetics.ts): coils, solid conductors
 * (picked terminals when the user picks them, else the engine finds them or takes a closed ring), flux boundaries, air padding, force bodies and torque axis, and each body's magnetic
 * material. Incomplete rows (no turns, no faces) are left out; the submit checks name what a run still lacks.
 */
export function magneticsToBackend(
  form: AnalysisForm,
  context: ToBackendContext,
): Partial<AnalysisConfigInput> {
  const eddy = context.analysisType === 'eddy-current';
  const names = new Map(context.bodies.map((b) => [b.region, b.name]));
  const conductorBodies = new Set(form.solidConductors.map((s) => bodyIndex(s.body)));
  /** The faces picked for one end of a coil or a solid conductor (its rows of `rows`, joined). */
  const ends = <R extends { side: 'in' | 'out'; faces: string }>(rows: R[]) => {
    const side = (s: 'in' | 'out') => rows.filter((t) => t.side === s).flatMap((t) => parseFaceList(t.faces));
    const [inFaces, outFaces] = [side('in'), side('out')];
    return inFaces.length > 0 && outFaces.length > 0 ? { in: inFaces, out: outFaces } : undefined;
  };
  const coils = form.coils.flatMap((c) => {
    const region = bodyIndex(c.body);
    const turns = parseInteger(c.turns);
    const current = parseNumber(c.current);
    if (region === undefined || turns === undefined || turns <= 0 || current === undefined) return [];
    const coil: NonNullable<AnalysisConfigInput['coils']>[number] = {
      name: c.name.trim() || `Coil ${region + 1}`,
      region,
      turns,
      current,
      phase: eddy ? (parseNumber(c.phase) ?? 0) : 0,
    };
    const axis = vector(c.axis);
    if (c.routing === 'closed' && axis && axis.some((x) => x !== 0)) coil.axis = axis;
    const wraps = bodyIndex(c.wraps);
    if (c.routing === 'wraps' && wraps !== undefined) coil.wraps = wraps;
    if (c.routing === 'terminals') {
      const terminals = ends(form.coilTerminals.filter((t) => t.coilKey === c.key));
      if (terminals) coil.terminals = terminals;
    }
    return [coil];
  });
  const config: Partial<AnalysisConfigInput> = {
    coils,
    solidConductors: form.solidConductors.flatMap((s) => {
      const region = bodyIndex(s.body);
      const current = parseNumber(s.current);
      if (region === undefined || current === undefined) return [];
      const terminals =
        s.terminals === 'picked'
          ? ends(form.conductorTerminals.filter((t) => t.conductorKey === s.key))
          : undefined;
      return [
        {
          name: s.name.trim() || undefined,
          region,
          current,
          phase: eddy ? (parseNumber(s.phase) ?? 0) : 0,
          ...(terminals ? { terminals } : {}),
        },
      ];
    }),
    magneticBoundaries: form.magneticBoundaries.flatMap((row) => {
      const faces = parseFaceList(row.faces);
      return faces.length ? [{ faces, type: row.type }] : [];
    }),
    forceBodies: [...form.forceBodies].sort((a, b) => a - b),
    bodyMaterials: Object.entries(form.magneticBodies)
      .map(([region, body]) => [Number(region), body] as const)
      .sort(([a], [b]) => a - b)
      .map(([region, body]) => ({
        region,
        ...(names.has(region) ? { name: names.get(region) } : {}),
        ...magneticMaterial(body, eddy || conductorBodies.has(region)),
      })),
  };
  const padding = parseNumber(form.airPadding);
  if (padding !== undefined && padding >= 0 && padding <= 20) config.airPadding = padding;
  const origin = vector(form.torqueAxisOrigin);
  const direction = vector(form.torqueAxisDirection);
  if (form.useTorqueAxis && origin && direction?.some((x) => x !== 0))
    config.torqueAxis = { origin, direction };
  if (eddy) {
    const f = parseNumber(form.eddyFrequencyHz);
    config.frequency = f !== undefined && f > 0 ? f : 50;
  }
  return config;
}
