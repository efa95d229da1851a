import { useEnv } from '../state/EnvironmentContext.tsx';
import { KeyValueTable } from '../ui/KeyValueTable.tsx';
import { modelSize } from '../upload/UnitsPicker.tsx';

/** Model info: file, unit, size, vertex/face/tetrahedron counts, bodies. */
export function ModelInfo() {
  const model = useEnv((s) => s.model);
  const bodies = useEnv((s) => s.bodies);
  if (!model) return <p className="muted small">No model loaded.</p>;
  const m = model.mesh;
  const size = modelSize(model.boundingBox, m.vertices);
  const rows: [string, string][] = [
    ['File', model.fileName],
    ['Units', m.units ?? 'm'],
    ['Size', size ? size.map((v) => +v.toPrecision(4)).join(' × ') : '—'],
    ['Vertices', m.vertices.length.toLocaleString()],
    ['Surface faces', m.faces.length.toLocaleString()],
    ['Tetrahedra', (m.tetrahedra?.length ?? 0).toLocaleString()],
  ];
  if (bodies.length > 0) rows.push(['Bodies', String(bodies.length)]);
  return <KeyValueTable rows={rows} testId="model-info" />;
}
