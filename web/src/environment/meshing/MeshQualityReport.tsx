import { isRecord } from '../api/http.ts';
import { useEnv } from '../state/EnvironmentContext.tsx';

const LABELS: Record<string, string> = {
  tetrahedra: 'Tetrahedra',
  num_tetrahedra: 'Tetrahedra',
  vertices: 'Vertices',
  num_vertices: 'Vertices',
  min_quality: 'Worst element quality',
  mean_quality: 'Mean element quality',
  min_dihedral_angle_deg: 'Smallest dihedral angle (°)',
  max_aspect_ratio: 'Largest aspect ratio',
  mesher: 'Mesher',
};

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
      if (['tetrahedra', 'num_tetrahedra', 'vertices', 'num_vertices'].includes(k)) continue;
      if (typeof v === 'number') rows.push([LABELS[k] ?? k.replace(/_/g, ' '), String(+v.toPrecision(4))]);
      else if (typeof v === 'string') rows.push([LABELS[k] ?? k.replace(/_/g, ' '), v]);
    }
  }
  return (
    <table className="kv" data-testid="mesh-quality">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th>{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
