/**
 * A small library of common materials for per-body assignment. Values are typical low-frequency,
 * room-temperature figures (relative permittivity, relative permeability, conductivity in S/m,
 * dielectric loss tangent); an engineer can override the defaults in the Materials group.
 */
export interface LibraryMaterial {
  id: string;
  label: string;
  relativePermittivity: number;
  relativePermeability: number;
  conductivity: number;
  lossTangent: number;
}

export const MATERIALS_LIBRARY: readonly LibraryMaterial[] = [
  {
    id: 'vacuum',
    label: 'Vacuum / air',
    relativePermittivity: 1,
    relativePermeability: 1,
    conductivity: 0,
    lossTangent: 0,
  },
  {
    id: 'fr4',
    label: 'FR-4',
    relativePermittivity: 4.4,
    relativePermeability: 1,
    conductivity: 0,
    lossTangent: 0.02,
  },
  {
    id: 'ptfe',
    label: 'PTFE',
    relativePermittivity: 2.1,
    relativePermeability: 1,
    conductivity: 0,
    lossTangent: 0.0002,
  },
  {
    id: 'alumina',
    label: 'Alumina (96 %)',
    relativePermittivity: 9.4,
    relativePermeability: 1,
    conductivity: 0,
    lossTangent: 0.0003,
  },
  {
    id: 'silicon',
    label: 'Silicon (high resistivity)',
    relativePermittivity: 11.7,
    relativePermeability: 1,
    conductivity: 0.01,
    lossTangent: 0,
  },
  {
    id: 'copper',
    label: 'Copper',
    relativePermittivity: 1,
    relativePermeability: 1,
    conductivity: 5.8e7,
    lossTangent: 0,
  },
  {
    id: 'aluminium',
    label: 'Aluminium',
    relativePermittivity: 1,
    relativePermeability: 1,
    conductivity: 3.77e7,
    lossTangent: 0,
  },
  {
    id: 'water',
    label: 'Water (distilled)',
    relativePermittivity: 80,
    relativePermeability: 1,
    conductivity: 5.5e-6,
    lossTangent: 0,
  },
];

export const DEFAULT_MATERIAL_ID = 'vacuum';

export function materialById(id: string): LibraryMaterial {
  return MATERIALS_LIBRARY.find((m) => m.id === id) ?? (MATERIALS_LIBRARY[0] as LibraryMaterial);
}
