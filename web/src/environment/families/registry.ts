import { AVAILABLE_ANALYSIS_TYPES } from '@fieldline/contracts';
import type { PhysicsFamily } from '../config/analysis-form.ts';
import type { FamilyModule } from './family-module.ts';

/**
 * Every folder under families/ with an index.ts is a family (docs/multiphysics.md §5): Vite (and vitest) load
 * them all here, so adding a family is adding its folder, and no shared file names one.
 */
const modules = import.meta.glob<{ default: FamilyModule }>('./*/index.ts', { eager: true });

let sorted: readonly FamilyModule[] | null = null;

/** The families in the chooser's order. Read on first use: a family's module may import shared code that
 * imports this one, so the list is not built while the modules are still loading. */
export function families(): readonly FamilyModule[] {
  sorted ??= Object.entries(modules)
    .map(([path, module]) => {
      if (!module.default) throw new Error(`${path} has no default export (its FamilyModule)`);
      return module.default;
    })
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  return sorted;
}

/** The form's default family: the chooser's first. */
export function defaultFamily(): FamilyModule {
  const first = families()[0];
  if (!first) throw new Error('no physics family under web/src/environment/families/');
  return first;
}

export function isPhysicsFamily(value: unknown): value is PhysicsFamily {
  return families().some((f) => f.id === value);
}

/** The family of `form.physics`; the default family for an id no folder has (a stale saved form). */
export function familyById(id: string): FamilyModule {
  return families().find((f) => f.id === id) ?? defaultFamily();
}

/** The family that runs an analysis type (saved results restore their family), if any does. */
export function familyOfAnalysisType(analysisType: unknown): FamilyModule | undefined {
  return families().find((f) => (f.analysisTypes as readonly unknown[]).includes(analysisType));
}

/** A family runs once the server solves at least one of its analysis types. */
export function familyAvailable(id: string): boolean {
  const family = families().find((f) => f.id === id);
  return (
    !!family && family.analysisTypes.some((t) => (AVAILABLE_ANALYSIS_TYPES as readonly string[]).includes(t))
  );
}
