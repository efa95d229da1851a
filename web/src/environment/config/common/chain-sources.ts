import { type ChainSource, ChainSourcesResponse, type MeshData, meshHashBytes } from '@fieldline/contracts';
import { defaultFetch, type FetchLike, request } from '../../../api/http.ts';

/** A field a chained run takes from another job (contracts CHAINABLE_FIELD_NAMES). */
export type ChainField = 'temperature' | 'stress';

/**
 * The model's mesh hash as the server stores it with each job (docs/multiphysics.md §7: SHA-256 of contracts
 * `meshHashBytes`); null where the browser has no Web Crypto (a page served over plain http elsewhere than
 * localhost), and then no source is listed.
 */
export async function meshHashOf(
  mesh: Pick<MeshData, 'vertices' | 'tetrahedra' | 'units'>,
): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', meshHashBytes(mesh) as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The caller's completed jobs on this mesh holding `field`, newest first (GET /api/fea/chain-sources). */
export async function fetchChainSources(
  meshHash: string,
  field: ChainField,
  doFetch: FetchLike = defaultFetch,
): Promise<ChainSource[]> {
  const query = new URLSearchParams({ mesh_hash: meshHash, field });
  const res = await request(`/api/fea/chain-sources?${query}`, {
    credentials: 'same-origin',
    cache: 'no-store',
    fetch: doFetch,
  });
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return ChainSourcesResponse.parse(res.json).jobs;
}

/** "Thermal · 7 Dec 06:41 · max 351.2 K": what a source's row in the picker says. */
export function chainSourceLabel(source: ChainSource, field: ChainField): string {
  const when = source.finished_at
    ? new Date(source.finished_at).toLocaleString(undefined, {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      })
    : 'unfinished';
  const peak =
    field === 'temperature'
      ? source.max_temperature_K !== null
        ? `max ${source.max_temperature_K.toFixed(1)} K`
        : ''
      : source.max_von_mises_Pa !== null
        ? `max von Mises ${(source.max_von_mises_Pa / 1e6).toPrecision(3)} MPa`
        : '';
  const frames = source.frames > 0 ? `${source.frames} frames` : '';
  return [source.analysis_type, when, peak, frames, source.job_id.slice(0, 8)].filter(Boolean).join(' · ');
}
