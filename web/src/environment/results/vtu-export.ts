import { viewerPayloadFromResultsJson } from '../../results/index.ts';

const VTK_TETRA = 10;
const VTK_TRIANGLE = 5;

function dataArray(name: string, values: ArrayLike<number>, components: number): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length; i++) parts.push(String(values[i]));
  return `<DataArray type="Float64" Name="${name}" NumberOfComponents="${components}" format="ascii">${parts.join(' ')}</DataArray>`;
}

/**
 * The results as a VTK unstructured grid (ASCII .vtu) for ParaView: the tetrahedra (or the surface when
 * there are none) with the vertex fields as point data. Coordinates stay in the model's unit.
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
  const pointData: string[] = [];
  if (fields?.eMagnitude) pointData.push(dataArray('E_magnitude', fields.eMagnitude, 1));
  if (fields?.eVectors) pointData.push(dataArray('E', fields.eVectors, 3));
  if (fields?.hMagnitude) pointData.push(dataArray('H_magnitude', fields.hMagnitude, 1));
  if (fields?.hVectors) pointData.push(dataArray('H', fields.hVectors, 3));
  if (fields?.potential) pointData.push(dataArray('potential', fields.potential, 1));
  return [
    '<?xml version="1.0"?>',
    '<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">',
    '<UnstructuredGrid>',
    `<Piece NumberOfPoints="${nv}" NumberOfCells="${nc}">`,
    `<PointData>${pointData.join('')}</PointData>`,
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
