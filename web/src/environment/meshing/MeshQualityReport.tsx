import { isRecord } from '../../api/http.ts';
import { useEnv } from '../state/EnvironmentContext.tsx';
import { KeyValueTable } from '../ui/KeyValueTable.tsx';

const LABELS: Record<string, string> = {
  min_quality: 'Worst element quality',
  avg_quality: 'Mean element quality',
  min_dihedral_deg: 'Smallest dihedral angle (°)',
  max_dihedral_deg: 'Largest dihedral angle (°)',
  slivers: 'Slivers',
  volume: 'Volume',
  min_volume: 'Smallest element volume',
  quality_measure: 'Quality measure',
  max_radius_edge_ratio: 'Largest radius-edge ratio',
};
/** Shown above the element counts: the geometry pipeline's report (engine geometry/quality.py). */
const SKIP = new Set([
  'element_count',
  'vertex_count',
  'tetrahedra',
  'vertices',
  'quality_histogram',
  'worst_elements',
]);

/** Volumes are in the model's unit cubed (mm³ for a STEP part in mm); the other figures have no unit. */
export function numberWithUnit(key: string, value: number, unit: string | undefined): string {
  const text = String(+value.toPrecision(4));
  return (key === 'volume' || key === 'min_volume') && unit ? `${text} ${unit}³` : text;
}

/** The meshing quality report (whatever the mesher reported), plus element counts. */
export function MeshQualityReport() {
  const quality = useEnv((s) => s.meshing.quality);
  const mesh = useEnv((s) => s.model?.mesh);
  if (!mesh?.tetrahedra?.length) return null;
  const rows: [string, string][] = [
    ['Tetrahedra', mesh.tetrahedra.length.toLocaleString()],
    ['Vertices', mesh.vertices.length.toLocaleString()],
    ['Surface faces', mesh.faces.length.toLocaleString()],
  ];
  if (isRecord(quality)) {
    for (const [k, v] of Object.entries(quality)) {
      if (SKIP.has(k)) continue;
      if (typeof v === 'number')
        rows.push([LABELS[k] ?? k.replace(/_/g, ' '), numberWithUnit(k, v, mesh.units)]);
      else if (typeof v === 'string') rows.push([LABELS[k] ?? k.replace(/_/g, ' '), v]);
    }
  }
  return <KeyValueTable rows={rows} className="mesh-quality" testId="mesh-quality" />;
}
