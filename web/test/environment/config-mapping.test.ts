import { ANALYSIS_DEFAULTS, AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { addFacesToList, parseFaceList, toggleFacesInList } from '../../src/environment/config/face-list.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { modeForAnalysisType, toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { newEmRows } from '../../src/environment/families/em/em-form.ts';

const form = () => defaultAnalysisForm();

describe('toBackendConfig', () => {
  it('maps the default form to the spec 001 §9 defaults, valid under the contract', () => {
    const config = toBackendConfig(form());
    const parsed = AnalysisConfig.parse(config);
    const d = ANALYSIS_DEFAULTS;
    expect(parsed).toMatchObject({
      analysisType: 'em',
      mode: 'electro',
      meshingOnly: false,
      frequency: 0,
      tolerance: 1e-6,
      maxIterations: 1000,
      linearSolver: 'auto',
      defaultPermittivity: 8.854e-12,
      defaultPermeability: 4 * Math.PI * 1e-7,
      defaultConductivity: 0,
      density: 1000,
      heatCapacity: 4186,
      timeStep: 1e-10,
      endTime: 1e-9,
      timeScheme: 'newmark',
      pmlThickness: 0.1,
      pmlSigmaMax: 1e6,
      gridPaddingFactor: 0.1,
      gridResolution: [10, 10, 10],
      gridResolutionX: 10,
      gridResolutionY: 10,
      gridResolutionZ: 10,
      animationFrames: 50,
      portImpedance: 50,
      sParamFreqMin: 1e9,
      sParamFreqMax: 1e10,
      sParamNumPoints: 101,
      meshOrder: 1,
      referenceNode: null,
    });
    expect(parsed.defaultPermittivity).toBe(d.defaultPermittivity);
  });

  it('maps analysis types to the backend mode (em → electro, *time* → electro-time, tetra-only kept)', () => {
    expect(modeForAnalysisType('em')).toBe('electro');
    expect(modeForAnalysisType('em-time')).toBe('electro-time');
    expect(modeForAnalysisType('tetra-only')).toBe('tetra-only');
    const transient = toBackendConfig({ ...form(), transient: true });
    expect(transient).toMatchObject({ analysisType: 'em-time', mode: 'electro-time', transient: true });
    const meshing = toBackendConfig(form(), {
      purpose: 'meshing',
      meshing: {
        maxElementSize: 0.5,
        elementsPerCircle: 16,
        algorithm: 'netgen',
        repair: 'none',
        grading: 0.5,
        curvatureRefinement: false,
      },
    });
    expect(meshing).toMatchObject({
      analysisType: 'tetra-only',
      mode: 'tetra-only',
      meshingOnly: true,
      meshMaxSize: 0.5,
      meshElementsPerCircle: 16,
      meshAlgorithm: 'netgen',
      meshRepair: 'none',
      meshGrading: 0.5,
      meshCurvatureRefinement: false,
    });
    expect(AnalysisConfig.parse(meshing).meshingOnly).toBe(true);
  });

  it('enforces the §5 bounds', () => {
    const c = toBackendConfig({
      ...form(),
      frequencyHz: 25e9,
      pmlThickness: 0.9,
      gridResolution: ['0', '300', 'abc'],
      gridPaddingFactor: 1.7,
      animationFrames: 215,
      meshOrder: 4 as 1,
    });
    expect(c.frequency).toBe(20e9);
    expect(c.pmlThickness).toBe(0.5);
    expect(c.gridResolution).toEqual([1, 256, 10]);
    expect([c.gridResolutionX, c.gridResolutionY, c.gridResolutionZ]).toEqual([1, 256, 10]);
    expect(c.gridPaddingFactor).toBe(1);
    expect(c.animationFrames).toBe(200);
    expect(c.meshOrder).toBe(1);
    const low = toBackendConfig({ ...form(), frequencyHz: -1, pmlThickness: 0, animationFrames: 3 });
    expect([low.frequency, low.pmlThickness, low.animationFrames]).toEqual([0, 0.01, 10]);
    expect(toBackendConfig({ ...form(), animationFrames: 54 }).animationFrames).toBe(50);
    expect(toBackendConfig({ ...form(), meshOrder: 3 }).meshOrder).toBe(3);
  });

  it('applies the §5 fallbacks: port impedance 50, S-parameters 1e9/1e10/101, amplitude 1, phase 0', () => {
    for (const bad of ['', 'abc', '0', '-5']) {
      const c = toBackendConfig({
        ...form(),
        portImpedance: bad,
        sParamFreqMin: bad,
        sParamFreqMax: bad,
        sParamNumPoints: bad,
      });
      expect([c.portImpedance, c.sParamFreqMin, c.sParamFreqMax, c.sParamNumPoints]).toEqual([
        50, 1e9, 1e10, 101,
      ]);
    }
    const ok = toBackendConfig({
      ...form(),
      portImpedance: '75',
      sParamFreqMin: '2e9',
      sParamFreqMax: '4e9',
      sParamNumPoints: '11',
    });
    expect([ok.portImpedance, ok.sParamFreqMin, ok.sParamFreqMax, ok.sParamNumPoints]).toEqual([
      75, 2e9, 4e9, 11,
    ]);
    expect(toBackendConfig({ ...form(), sParamNumPoints: '2.5' }).sParamNumPoints).toBe(101);

    const port = { ...newEmRows.wavePort(0), faces: '4, 5', amplitude: '', phase: 'x' };
    const c = toBackendConfig({
      ...form(),
      useWavePorts: true,
      wavePorts: [port, { ...newEmRows.wavePort(1), faces: '7', amplitude: '2', phase: '90', mode: 'TEM' }],
    });
    expect(c.wavePorts).toEqual([
      { portID: 1, faces: [4, 5], mode: 'TE10', amplitude: 1, phase: 0 },
      { portID: 2, faces: [7], mode: 'TEM', amplitude: 2, phase: 90 },
    ]);
    expect(toBackendConfig({ ...form(), useWavePorts: false, wavePorts: [port] }).wavePorts).toEqual([]);
  });

  it('drives only the first new wave port (1 W); later ones start as matched loads (amplitude 0)', () => {
    const ports = [newEmRows.wavePort(0), newEmRows.wavePort(1), newEmRows.wavePort(2)].map((p, i) => ({
      ...p,
      faces: String(i + 4),
    }));
    const c = toBackendConfig({ ...form(), useWavePorts: true, wavePorts: ports });
    expect((c.wavePorts ?? []).map((p) => [p.portID, p.amplitude])).toEqual([
      [1, 1],
      [2, 0],
      [3, 0],
    ]);
  });

  it('sends only complete Dirichlet entries (node and voltage) and face groups with faces', () => {
    const c = toBackendConfig({
      ...form(),
      dirichletNodes: [
        { key: 'a', node: '3', voltage: '5' },
        { key: 'b', node: '', voltage: '1' },
        { key: 'c', node: '4', voltage: '' },
        { key: 'd', node: '1.5', voltage: '2' },
        { key: 'e', node: '0', voltage: '-2.5' },
      ],
      dirichletFaceGroups: [
        { key: 'g1', name: 'Inner', faces: '1, 2, 0, x', voltage: '1' },
        { key: 'g2', name: 'Outer', faces: 'none', voltage: '0' },
        { key: 'g3', name: '', faces: '9', voltage: '0' },
      ],
      referenceNode: '7',
    });
    expect(c.dirichletConditions).toEqual({ '3': 5, '0': -2.5 });
    expect(c.dirichletFaceConditions).toEqual([
      { faces: [1, 2], voltage: 1, name: 'Inner' },
      { faces: [9], voltage: 0, name: undefined },
    ]);
    expect(c.referenceNode).toBe(7);
  });

  it('maps Neumann and impedance rows; a new impedance boundary starts at 50+0j', () => {
    const z = newEmRows.impedance();
    expect([z.real, z.imag]).toEqual(['50', '0']);
    const c = toBackendConfig({
      ...form(),
      neumann: [{ key: 'n', faces: '3,4', flux: '2.5' }],
      impedance: [
        { ...z, faces: '5' },
        { ...newEmRows.impedance(), faces: '' },
      ],
    });
    expect(c.neumannConditions).toEqual([{ faces: [3, 4], flux: 2.5 }]);
    expect(c.impedanceConditions).toEqual([{ faces: [5], impedance: { real: 50, imag: 0 } }]);
  });

  it('maps per-body library materials to bodyMaterials; a new anisotropic material starts at all 1 and σ 0', () => {
    const a = newEmRows.anisotropic(0);
    expect(a).toMatchObject({
      permittivity: ['1', '1', '1'],
      permeability: ['1', '1', '1'],
      conductivity: ['0', '0', '0'],
    });
    const c = toBackendConfig(
      {
        ...form(),
        bodyMaterials: { 0: 'ptfe', 1: 'copper' },
        useAnisotropicMaterials: true,
        anisotropicMaterials: [a],
      },
      {
        bodies: [
          { region: 0, name: 'dielectric' },
          { region: 1, name: 'pin' },
          { region: 2, name: 'air' },
        ],
      },
    );
    expect(c.bodyMaterials).toEqual([
      {
        region: 0,
        name: 'dielectric',
        relativePermittivity: 2.1,
        relativePermeability: 1,
        conductivity: 0,
        lossTangent: 0.0002,
      },
      {
        region: 1,
        name: 'pin',
        relativePermittivity: 1,
        relativePermeability: 1,
        conductivity: 5.8e7,
        lossTangent: 0,
      },
    ]);
    // The row names the first body, as the engine counts them (from 0), not "1" (no such body on one body).
    expect(c.anisotropicMaterials).toEqual([
      { id: 0, permittivity: [1, 1, 1], permeability: [1, 1, 1], conductivity: [0, 0, 0] },
    ]);
    expect(() => AnalysisConfig.parse(c)).not.toThrow();
  });

  it('falls back to defaults for unusable solver and material entries', () => {
    const c = toBackendConfig({
      ...form(),
      tolerance: '-1',
      maxIterations: '2.5',
      defaultPermittivity: '',
      defaultConductivity: '-3',
      timeStep: '0',
    });
    expect([c.tolerance, c.maxIterations, c.defaultPermittivity, c.defaultConductivity, c.timeStep]).toEqual([
      1e-6, 1000, 8.854e-12, 0, 1e-10,
    ]);
  });
});

describe('face lists', () => {
  it('parses comma-separated integers, dropping zero and invalid entries', () => {
    expect(parseFaceList('1, 2, 3')).toEqual([1, 2, 3]);
    expect(parseFaceList(' 4,0, x, 3.5, -2, , 7 ,1e2, 07')).toEqual([4, 7]);
    expect(parseFaceList('5,5,6')).toEqual([5, 6]);
    expect(parseFaceList('')).toEqual([]);
  });
  it('adds picked faces and toggles them off when picked again', () => {
    expect(addFacesToList('1, x, 2', [2, 3])).toBe('1, 2, 3');
    expect(toggleFacesInList('1, 2, 3', [2])).toBe('1, 3');
    expect(toggleFacesInList('1', [2, 3])).toBe('1, 2, 3');
    expect(toggleFacesInList('1, 2, 3', [2, 3])).toBe('1');
  });
});
