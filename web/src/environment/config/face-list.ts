/**
 * Face id lists (spec 001 §5): comma-separated integers; zero and invalid entries are dropped.
 * Face ids are 1-based (docs/conventions.md), so 0 can never name a face. Duplicates are dropped too.
 */
export function parseFaceList(text: string): number[] {
  const ids: number[] = [];
  const seen = new Set<number>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!/^\+?\d+$/.test(entry)) continue;
    const id = Number(entry);
    if (id === 0 || !Number.isSafeInteger(id) || seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

export function formatFaceList(ids: readonly number[]): string {
  return ids.join(', ');
}

/** Adds the ids to a typed list (face picking in the viewer), keeping what the user typed. */
export function addFacesToList(text: string, ids: readonly number[]): string {
  const current = parseFaceList(text);
  return formatFaceList([...current, ...ids.filter((id) => !current.includes(id))]);
}

/** Picking faces that are all chosen already removes them; otherwise they are added. */
export function toggleFacesInList(text: string, ids: readonly number[]): string {
  const current = parseFaceList(text);
  if (ids.length > 0 && ids.every((id) => current.includes(id))) {
    return formatFaceList(current.filter((id) => !ids.includes(id)));
  }
  return addFacesToList(text, ids);
}
