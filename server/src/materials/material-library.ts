import { existsSync, readFileSync } from 'node:fs';
import { bhCurveByName, MATERIALS, Material } from '@fieldline/contracts';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';

/** MATERIALS_FILE: a list of materials (JSON or YAML) that adds to the built-in library or replaces an entry by id. */
const MaterialsFile = z.array(Material);

/**
 * The material library (docs/multiphysics.md §5): the built-in materials of contracts/src/materials with the
 * operator's MATERIALS_FILE on top. Read once at start-up; a broken file stops the server with a message
 * naming the file and the bad field, like the plans file.
 */
export class MaterialLibrary {
  private constructor(private readonly byId: Map<string, Material>) {}

  static load(file: string | null): MaterialLibrary {
    const byId = new Map(MATERIALS.map((m) => [m.id, m]));
    if (file && existsSync(file)) {
      let raw: unknown;
      try {
        const text = readFileSync(file, 'utf8');
        raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
      } catch (err) {
        throw new Error(`The materials file ${file} cannot be read: ${(err as Error).message}`);
      }
      const parsed = MaterialsFile.safeParse(raw ?? []);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(
          `The materials file ${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
        );
      }
      for (const m of parsed.data) byId.set(m.id, m);
    }
    return new MaterialLibrary(byId);
  }

  all(): Material[] {
    return [...this.byId.values()];
  }

  /**
   * A config's `bodyMaterials` with each library name expanded into the material's properties; a property
   * the entry gives itself wins. An unknown name is a 400 naming the entry and the closest names.
   */
  expand(bodyMaterials: unknown): unknown {
    if (!Array.isArray(bodyMaterials)) return bodyMaterials;
    return bodyMaterials.map((entry, i) => {
      if (!entry || typeof entry !== 'object') return entry;
      const name = (entry as { material?: unknown }).material;
      if (name === undefined) return expandBhCurve(entry, i);
      const material = typeof name === 'string' ? this.byId.get(name) : undefined;
      if (!material) {
        throw new HttpError(
          400,
          'invalid_config',
          `bodyMaterials[${i}].material: unknown material '${String(name)}'. Known materials include: ${this.closest(String(name)).join(', ')} (GET /api/materials lists them all).`,
          { status: 'error' },
        );
      }
      const { id: _id, label: _label, ...properties } = material;
      return expandBhCurve({ ...properties, ...entry }, i);
    });
  }

  /** The ids most like `name` (shared letters in order), for the error message. */
  private closest(name: string): string[] {
    const score = (id: string) => {
      let k = 0;
      for (const ch of name.toLowerCase()) if (id.includes(ch)) k++;
      return k / Math.max(id.length, name.length);
    };
    return [...this.byId.keys()].sort((a, b) => score(b) - score(a)).slice(0, 5);
  }
}

/** A B–H curve given by library name becomes its table: the engine reads tables only (docs/magnetics.md). */
function expandBhCurve(entry: object, i: number): object {
  const curve = (entry as { bhCurve?: unknown }).bhCurve;
  if (typeof curve !== 'string') return entry;
  const found = bhCurveByName(curve);
  if (!found)
    throw new HttpError(
      400,
      'invalid_config',
      `bodyMaterials[${i}].bhCurve: unknown B–H curve '${curve}'; give a library curve name or a table [[H (A/m), B (T)], …].`,
      { status: 'error' },
    );
  return { ...entry, bhCurve: found.points };
}
