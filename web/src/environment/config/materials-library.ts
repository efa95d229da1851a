import { MATERIALS, type Material } from '@fieldline/contracts';

/**
 * The material library for per-body assignment (contracts/src/materials): every family's properties in
 * SI; an engineer can override them in each family's materials group.
 */
export type LibraryMaterial = Material;

export const MATERIALS_LIBRARY: readonly LibraryMaterial[] = MATERIALS;

export const DEFAULT_MATERIAL_ID = 'vacuum';

export function materialById(id: string): LibraryMaterial {
  return MATERIALS_LIBRARY.find((m) => m.id === id) ?? (MATERIALS_LIBRARY[0] as LibraryMaterial);
}
