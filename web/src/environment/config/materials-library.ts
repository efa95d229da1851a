import { MATERIALS, Material } from '@fieldline/contracts';
import { type FetchLike, request } from '../../api/http.ts';

/**
 * The material library for per-body assignment (contracts/src/materials, plus the operator's MATERIALS_FILE
 * served by GET /api/materials): every family's properties in SI; each family's materials group lets the
 * engineer override them.
 */
export type LibraryMaterial = Material;

let library: readonly LibraryMaterial[] = MATERIALS;

/** The materials the forms offer: the built-ins until the server's library has been read. */
export function materialsLibrary(): readonly LibraryMaterial[] {
  return library;
}

/** Reads GET /api/materials once; the built-in library stays when the server cannot be reached. */
export async function loadMaterialsLibrary(fetcher?: FetchLike): Promise<void> {
  try {
    const res = await request('/api/materials', { fetch: fetcher });
    if (!res.ok) return;
    const parsed = Material.array().safeParse(res.body.materials);
    if (parsed.success && parsed.data.length > 0) library = parsed.data;
  } catch {
    // offline or an older server: the built-in library
  }
}

export const DEFAULT_MATERIAL_ID = 'vacuum';

export function materialById(id: string): LibraryMaterial {
  return library.find((m) => m.id === id) ?? (library[0] as LibraryMaterial);
}
