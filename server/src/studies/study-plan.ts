import { type CreateStudyRequest, STUDY_MAX_POINTS, type StudyParameter } from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';

/** One point of a study before it runs: its index and path → value. */
export interface PlannedPoint {
  index: number;
  parameters: Record<string, number>;
}

/** The values a parameter takes, in order. */
export function parameterValues(p: StudyParameter): number[] {
  if ('values' in p) return p.values;
  const { from, to, steps, scale } = p;
  if (scale === 'log' && (from <= 0 || to <= 0))
    throw new HttpError(
      400,
      'invalid_parameter',
      `Parameter ${p.path}: a log scale needs from and to above 0 (got ${from} and ${to}).`,
      { path: p.path, value: from <= 0 ? from : to },
    );
  if (steps === 1) return [from];
  return Array.from({ length: steps }, (_, i) => {
    const t = i / (steps - 1);
    if (i === steps - 1) return to; // exactly `to`, not its rounding
    return scale === 'log' ? from * (to / from) ** t : from + (to - from) * t;
  });
}

const tooMany = (count: number) =>
  new HttpError(
    400,
    'too_many_points',
    `The study has ${count} points; a study may have at most ${STUDY_MAX_POINTS}. Use fewer values, or combine them with "zip" instead of "grid".`,
    { points: count },
  );

/** Every point of a sweep: each combination (`grid`, the first parameter varying slowest) or side by side (`zip`). */
export function planPoints(request: Pick<CreateStudyRequest, 'parameters' | 'combine'>): PlannedPoint[] {
  const lists = request.parameters.map((p) => ({ path: p.path, values: parameterValues(p) }));
  const paths = new Set<string>();
  for (const { path } of lists) {
    if (paths.has(path))
      throw new HttpError(400, 'invalid_parameter', `Parameter ${path} is given twice.`, { path });
    paths.add(path);
  }
  if (lists.length === 0) return [];
  if (request.combine === 'zip') {
    const n = lists[0]?.values.length ?? 0;
    const odd = lists.find((l) => l.values.length !== n);
    if (odd)
      throw new HttpError(
        400,
        'invalid_parameter',
        `"zip" pairs the values side by side: ${lists[0]?.path} has ${n} values but ${odd.path} has ${odd.values.length}.`,
        { path: odd.path },
      );
    if (n > STUDY_MAX_POINTS) throw tooMany(n);
    return Array.from({ length: n }, (_, i) => ({
      index: i,
      parameters: Object.fromEntries(lists.map((l) => [l.path, l.values[i] as number])),
    }));
  }
  const count = lists.reduce((n, l) => n * l.values.length, 1);
  if (count > STUDY_MAX_POINTS) throw tooMany(count);
  let combos: Record<string, number>[] = [{}];
  for (const { path, values } of lists)
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [path]: v })));
  return combos.map((parameters, index) => ({ index, parameters }));
}
