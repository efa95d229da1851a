import { FIELD_COMPONENTS } from '@fieldline/contracts';
import { viewerPayloadFromResultsJson } from '../../results-format/index.ts';

const VTK_TETRA = 10;
const VTK_TRIANGLE = 5;

function dataArray(name: string, values: ArrayLike<number>, components: number): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length; i++) parts.push(String(values[i]));
  return `<DataArray type="Float64" Name="${name}" NumberOfComponents="${components}" format="ascii">${parts.join(' ')}</DataArray>`;
}

/**
 * The results as a VTK unstructured grid (ASCII .vtu) for ParaView: the tetrahedra (or the surface when
 * there are none) with every named field (point or cell data). Coordinates stay in the model's unit.
 */
export function resultsToVtu(result: Record<string, unknown>): string {
  const { mesh, fields } = viewerPayloadFromResultsJson(result);
  const nv = mesh.positions.length / 3;
  const cells = mesh.tetrahedra ?? mesh.triangles;
  const width = mesh.tetrahedra ? 4 : 3;
  const type = mesh.tetrahedra ? VTK_TETRA : VTK_TRIANGLE;
  const nc = cells.length / width;
  const offsets: number[] = [];
  for (let c = 1; c <= nc; c++) offsets.push(c * width);
  // Every named field: vertex fields as point data, cell fields (per tetrahedron) as cell data; the
  // imaginary part of a phasor as its own array; the array name carries the unit.
  const pointData: string[] = [];
  const cellData: string[] = [];
  for (const [name, field] of Object.entries(fields ?? {})) {
    if (field.location === 'cell' && !mesh.tetrahedra) continue;
    const target = field.location === 'cell' ? cellData : pointData;
    const components = FIELD_COMPONENTS[field.kind];
    const unit = field.unit ? ` [${field.unit}]` : '';
    target.push(dataArray(`${name}${unit}`, field.values, components));
    if (field.imag) target.push(dataArray(`${name}_imag${unit}`, field.imag, components));
  }
  return [
    '<?xml version="1.0"?>',
    '<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">',
    '<UnstructuredGrid>',
    `<Piece NumberOfPoints="${nv}" NumberOfCells="${nc}">`,
    `<PointData>${pointData.join('')}</PointData>`,
    `<CellData>${cellData.join('')}</CellData>`,
    `<Points>${dataArray('Points', mesh.positions, 3)}</Points>`,
    '<Cells>',
    `<DataArray type="Int64" Name="connectivity" format="ascii">${Array.from(cells).join(' ')}</DataArray>`,
    `<DataArray type="Int64" Name="offsets" format="ascii">${offsets.join(' ')}</DataArray>`,
    `<DataArray type="UInt8" Name="types" format="ascii">${new Array(nc).fill(type).join(' ')}</DataArray>`,
    '</Cells>',
    '</Piece>',
    '</UnstructuredGrid>',
    '</VTKFile>',
    '',
  ].join('\n');
}
