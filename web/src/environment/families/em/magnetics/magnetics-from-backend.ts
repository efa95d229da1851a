import { BH_CURVES, MAGNETIC_BOUNDARY_TYPES } from '@fieldline/contracts';
import { isRecord } from '../../../../api/http.ts';
import { numberText, rowKey, type Triple } from '../../../config/analysis-form.ts';
import {
  type ConfigReader,
  faceText,
  isNumber,
  numText,
  tripleText,
} from '../../../config/common/config-reader.ts';
import {
  type CoilRow,
  type CoilTerminalRow,
  type ConductorTerminalRow,
  defaultMagneticBody,
  defaultMagneticsForm,
  type MagneticBody,
  type MagneticBoundaryRow,
  type MagneticsFormFields,
  type SolidConductorRow,
} from './magnetics-form.ts';

const BLANK: Triple = ['', '', ''];
/** A body reference as the form's body field: an index (names are not known here, so they are refused). */
const regionText = (v: unknown): string | null =>
  Number.isInteger(v) && (v as number) >= 0 ? String(v) : null;

/** The reverse of magneticsToBackend: a saved magnetostatic or eddy-current config back into the form. */
export function magneticsFromBackend(r: ConfigReader): MagneticsFormFields {
  const form = magneticSourcesFromBackend(r, r.config.analysisType === 'eddy-current');
  const force = r.config.forceBodies;
  if (Array.isArray(force) && force.every((v) => regionText(v) !== null))
    form.forceBodies = force as number[];
  else if (force !== undefined) r.reset.push('forceBodies');
  const axis = r.config.torqueAxis;
  if (isRecord(axis)) {
    const origin = tripleText(axis.origin ?? [0, 0, 0]);
    const direction = tripleText(axis.direction);
    if (origin && direction)
      Object.assign(form, { useTorqueAxis: true, torqueAxisOrigin: origin, torqueAxisDirection: direction });
    else r.reset.push('torqueAxis');
  }
  form.magneticBodies = magneticBodies(r);
  return form;
}

/**
 * The sources and the field region of a saved config: coils with their terminals, solid conductors, flux
 * boundaries, added air and (`eddy`) the frequency; the other magnetics fields at their defaults. A thermal
 * run heated by induction carries these keys too (its materials are the thermal form's).
 */
export function magneticSourcesFromBackend(r: ConfigReader, eddy: boolean): MagneticsFormFields {
  const form = defaultMagneticsForm();
  const terminals: CoilTerminalRow[] = [];
  form.coils = r.rows('coils', (e, i) => coilRow(e, i, terminals));
  form.coilTerminals = terminals;
  const ends: ConductorTerminalRow[] = [];
  form.solidConductors = r.rows('solidConductors', (e, i) => solidConductorRow(e, i, ends));
  form.conductorTerminals = ends;
  form.magneticBoundaries = r.rows('magneticBoundaries', boundaryRow);
  r.text('airPadding', form, 'airPadding', (n) => n >= 0 && n <= 20);
  if (eddy) r.text('frequency', form, 'eddyFrequencyHz', (n) => n > 0);
  return form;
}

function coilRow(e: Record<string, unknown>, i: number, terminals: CoilTerminalRow[]): CoilRow | null {
  const body = regionText(e.region);
  if (body === null || !isNumber(e.turns) || !isNumber(e.current)) return null;
  const row: CoilRow = {
    key: rowKey(),
    name: typeof e.name === 'string' ? e.name : `Coil ${i + 1}`,
    body,
    turns: numberText(e.turns),
    current: numberText(e.current),
    phase: numText(e.phase, '0'),
    routing: 'closed',
    axis: tripleText(e.axis) ?? BLANK,
    wraps: '',
  };
  const wraps = regionText(e.wraps);
  if (wraps !== null) Object.assign(row, { routing: 'wraps', wraps });
  if (isRecord(e.terminals)) {
    const inFaces = faceText(e.terminals.in);
    const outFaces = faceText(e.terminals.out);
    if (inFaces === null || outFaces === null) return null;
    row.routing = 'terminals';
    terminals.push({ key: rowKey(), coilKey: row.key, side: 'in', faces: inFaces });
    terminals.push({ key: rowKey(), coilKey: row.key, side: 'out', faces: outFaces });
  }
  return row;
}

function solidConductorRow(
  e: Record<string, unknown>,
  i: number,
  terminals: ConductorTerminalRow[],
): SolidConductorRow | null {
  const body = regionText(e.region);
  if (body === null || !isNumber(e.current)) return null;
  const row: SolidConductorRow = {
    key: rowKey(),
    name: typeof e.name === 'string' ? e.name : `Conductor ${i + 1}`,
    body,
    current: numberText(e.current),
    phase: numText(e.phase, '0'),
    terminals: 'auto',
  };
  if (isRecord(e.terminals)) {
    const inFaces = faceText(e.terminals.in);
    const outFaces = faceText(e.terminals.out);
    if (inFaces === null || outFaces === null) return null;
    row.terminals = 'picked';
    terminals.push({ key: rowKey(), conductorKey: row.key, side: 'in', faces: inFaces });
    terminals.push({ key: rowKey(), conductorKey: row.key, side: 'out', faces: outFaces });
  }
  return row;
}

function boundaryRow(e: Record<string, unknown>): MagneticBoundaryRow | null {
  const faces = faceText(e.faces);
  const type = MAGNETIC_BOUNDARY_TYPES.find((t) => t === e.type);
  return faces === null || !type ? null : { key: rowKey(), faces, type };
}

/** Each body's magnetic material from `bodyMaterials`: a magnet (remanence), iron (a curve) or μr. */
function magneticBodies(r: ConfigReader): Record<number, MagneticBody> {
  const out: Record<number, MagneticBody> = {};
  const entries = r.config.bodyMaterials;
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) {
    r.reset.push('bodyMaterials');
    return out;
  }
  entries.forEach((e, i) => {
    const body = isRecord(e) ? readBody(e) : null;
    if (body === null || !isRecord(e)) r.reset.push(`bodyMaterials[${i + 1}]`);
    else out[e.region as number] = body;
  });
  return out;
}

function readBody(e: Record<string, unknown>): MagneticBody | null {
  if (regionText(e.region) === null) return null;
  const sigma = numText(e.conductivity, '0');
  if (e.remanence !== undefined) {
    const remanence = tripleText(e.remanence);
    if (!remanence) return null;
    return {
      ...defaultMagneticBody('magnet'),
      remanence,
      relativePermeability: numText(e.relativePermeability, '1'),
      conductivity: sigma,
    };
  }
  if (e.bhCurve !== undefined) {
    const iron = { ...defaultMagneticBody('iron'), conductivity: sigma };
    if (typeof e.bhCurve === 'string' && Object.hasOwn(BH_CURVES, e.bhCurve))
      return { ...iron, curve: e.bhCurve };
    if (Array.isArray(e.bhCurve)) return { ...iron, curve: 'table', table: JSON.stringify(e.bhCurve) };
    return null;
  }
  if (
    e.relativePermeability !== undefined &&
    !(isNumber(e.relativePermeability) && e.relativePermeability > 0)
  )
    return null;
  return {
    ...defaultMagneticBody('linear'),
    relativePermeability: numText(e.relativePermeability, '1'),
    conductivity: sigma,
  };
}
