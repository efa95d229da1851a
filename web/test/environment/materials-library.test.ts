import { MATERIALS } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import {
  loadMaterialsLibrary,
  materialById,
  materialsLibrary,
} from '../../src/environment/config/materials-library.ts';

describe('the forms’ material library', () => {
  it('starts with the built-ins and takes the server’s list (built-ins + MATERIALS_FILE)', async () => {
    expect(materialsLibrary()).toBe(MATERIALS);
    // an unreachable server keeps the built-ins
    await loadMaterialsLibrary(async () => {
      throw new Error('offline');
    });
    expect(materialsLibrary()).toBe(MATERIALS);
    const brass = {
      id: 'brass',
      label: 'Brass C360',
      relativePermittivity: 1,
      relativePermeability: 1,
      conductivity: 1.5e7,
      lossTangent: 0,
      youngsModulus: 97e9,
    };
    await loadMaterialsLibrary(async () => Response.json({ materials: [...MATERIALS, brass] }));
    expect(materialById('brass').youngsModulus).toBe(97e9);
    // a malformed reply is ignored
    await loadMaterialsLibrary(async () => Response.json({ materials: [{ id: 'Bad Id' }] }));
    expect(materialById('brass').label).toBe('Brass C360');
  });
});
