import { AIR_PADDING_DEFAULT, type MAGNETIC_BOUNDARY_TYPES } from '@fieldline/contracts';
import { numberText, rowKey, type Triple } from '../../../config/analysis-form.ts';

export type MagneticBoundaryType = (typeof MAGNETIC_BOUNDARY_TYPES)[number];
/** How a body responds to the field: μr alone, soft iron on a B–H curve, or a permanent magnet. */
export type MagneticBodyKind = 'linear' | 'iron' | 'magnet';
/** A coil's current path (docs/magnetics.md §3): a ring around a hole, a shell around a body, or open ends. */
export type CoilRouting = 'closed' | 'wraps' | 'terminals';

/** A stranded winding filling a body (contract `coils[]`). */
export interface CoilRow {
  key: string;
  name: string;
  /** the winding's body index */
  body: string;
  turns: string;
  /** A (DC in magnetostatics, peak in eddy currents) */
  current: string;
  /** degrees (eddy currents) */
  phase: string;
  routing: CoilRouting;
  /** closed coils: right-handed about this direction; blank = the engine finds the axis */
  axis: Triple;
  /** routing 'wraps': the body the winding goes around */
  wraps: string;
}

/** One end of an open coil, picked on the model: the coil it belongs to and which end. */
export interface CoilTerminalRow {
  key: string;
  coilKey: string;
  side: 'in' | 'out';
  faces: string;
}

/** Where a solid conductor's current enters and leaves: found by the engine (the two separate patches where
 * the conductor meets the model's boundary) or faces picked on the model. */
export type ConductorTerminals = 'auto' | 'picked';

/** A massive conductor fed a total current (eddy currents only). */
export interface SolidConductorRow {
  key: string;
  name: string;
  body: string;
  current: string;
  phase: string;
  terminals: ConductorTerminals;
}

/** One end of a solid conductor, picked on the model (as a coil's, CoilTerminalRow). */
export interface ConductorTerminalRow {
  key: string;
  conductorKey: string;
  side: 'in' | 'out';
  faces: string;
}

export interface MagneticBoundaryRow {
  key: string;
  faces: string;
  type: MagneticBoundaryType;
}

/** A body's magnetic material (contract `bodyMaterials[]`: relativePermeability, bhCurve, remanence). */
export interface MagneticBody {
  kind: MagneticBodyKind;
  /** μr; the recoil permeability of a magnet */
  relativePermeability: string;
  /** a library curve name (BH_CURVES) or 'table' for the pasted points */
  curve: string;
  /** pasted [[H, B], …] (JSON or one "H, B" pair a line) */
  table: string;
  /** Br (T) as a vector */
  remanence: Triple;
  /** S/m (eddy currents: a conductor's conductivity) */
  conductivity: string;
}

/** The magnetics fields of the EM family's form (docs/magnetics.md). */
export interface MagneticsFormFields {
  coils: CoilRow[];
  coilTerminals: CoilTerminalRow[];
  solidConductors: SolidConductorRow[];
  conductorTerminals: ConductorTerminalRow[];
  magneticBoundaries: MagneticBoundaryRow[];
  /** body index → its magnetic material; bodies not listed are air (μr 1) */
  magneticBodies: Record<number, MagneticBody>;
  /** body indices whose force and torque are reported */
  forceBodies: number[];
  useTorqueAxis: boolean;
  torqueAxisOrigin: Triple;
  torqueAxisDirection: Triple;
  /** air added around a bare device, in model radii; 0 = none */
  airPadding: string;
  /** Hz (eddy currents) */
  eddyFrequencyHz: string;
}

export function defaultMagneticsForm(): MagneticsFormFields {
  return {
    coils: [],
    coilTerminals: [],
    solidConductors: [],
    conductorTerminals: [],
    magneticBoundaries: [],
    magneticBodies: {},
    forceBodies: [],
    useTorqueAxis: false,
    torqueAxisOrigin: ['0', '0', '0'],
    torqueAxisDirection: ['0', '0', '1'],
    airPadding: numberText(AIR_PADDING_DEFAULT),
    eddyFrequencyHz: '50',
  };
}

export function defaultMagneticBody(kind: MagneticBodyKind = 'linear'): MagneticBody {
  return {
    kind,
    relativePermeability: kind === 'magnet' ? '1.05' : kind === 'linear' ? '1000' : '1',
    curve: 'm19-steel',
    table: '',
    remanence: ['0', '0', '1.2'],
    conductivity: '0',
  };
}

export const newMagneticsRows = {
  coil: (index: number, body = '0'): CoilRow => ({
    key: rowKey(),
    name: `Coil ${index + 1}`,
    body,
    turns: '100',
    current: '1',
    phase: '0',
    routing: 'closed',
    axis: ['', '', ''],
    wraps: '',
  }),
  terminal: (coilKey: string, side: 'in' | 'out'): CoilTerminalRow => ({
    key: rowKey(),
    coilKey,
    side,
    faces: '',
  }),
  solidConductor: (index: number, body = '0'): SolidConductorRow => ({
    key: rowKey(),
    name: `Conductor ${index + 1}`,
    body,
    current: '1',
    phase: '0',
    terminals: 'auto',
  }),
  conductorTerminal: (conductorKey: string, side: 'in' | 'out'): ConductorTerminalRow => ({
    key: rowKey(),
    conductorKey,
    side,
    faces: '',
  }),
  boundary: (): MagneticBoundaryRow => ({ key: rowKey(), faces: '', type: 'flux-normal' }),
};
