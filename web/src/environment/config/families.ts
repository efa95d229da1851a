import { type AnalysisType, AVAILABLE_ANALYSIS_TYPES } from '@fieldline/contracts';

/** The physics families the landing page promises (spec 000 §1–2), in the chooser's order. */
export const PHYSICS_FAMILIES = [
  {
    id: 'em',
    label: 'Electromagnetic',
    analysisTypes: ['em', 'em-time', 'em-eigen'],
    coming: '',
  },
  {
    id: 'thermal',
    label: 'Thermal',
    analysisTypes: ['thermal', 'thermal-time'],
    coming:
      'Steady and transient heat conduction with convection, radiation, heat sources and Joule heating from the conduction solve.',
  },
  {
    id: 'vibration',
    label: 'Vibration',
    analysisTypes: ['modal', 'harmonic'],
    coming: 'Natural frequencies and mode shapes, and the harmonic response to loads over a frequency band.',
  },
  {
    id: 'structural',
    label: 'Structural',
    analysisTypes: ['structural'],
    coming:
      'Linear static stress: supports and loads on picked faces, deformed shape, von Mises stress, reactions.',
  },
] as const satisfies readonly {
  id: string;
  label: string;
  analysisTypes: readonly AnalysisType[];
  coming: string;
}[];

export type PhysicsFamily = (typeof PHYSICS_FAMILIES)[number]['id'];

export function isPhysicsFamily(value: unknown): value is PhysicsFamily {
  return PHYSICS_FAMILIES.some((f) => f.id === value);
}

/** A family runs once the server solves at least one of its analysis types. */
export function familyAvailable(id: PhysicsFamily): boolean {
  const family = PHYSICS_FAMILIES.find((f) => f.id === id);
  return (
    !!family && family.analysisTypes.some((t) => (AVAILABLE_ANALYSIS_TYPES as readonly string[]).includes(t))
  );
}

/** The family an analysis type belongs to (saved results restore their family). */
export function familyOf(analysisType: string): PhysicsFamily {
  return (
    PHYSICS_FAMILIES.find((f) => (f.analysisTypes as readonly string[]).includes(analysisType))?.id ?? 'em'
  );
}
