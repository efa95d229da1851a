import { AnalysisConfig } from '@fieldline/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnalysisForm, newProbeRow, numberText } from '../../src/environment/config/analysis-form.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig, restoreNotice } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { newEmRows } from '../../src/environment/families/em/em-form.ts';
import { defaultMagneticsForm } from '../../src/environment/families/em/magnetics/magnetics-form.ts';
import { newStructuralRows } from '../../src/environment/families/structural/structural-form.ts';
import { newThermalRows } from '../../src/environment/families/thermal/thermal-form.ts';
import { VibrationModes } from '../../src/environment/families/vibration/results/VibrationModes.tsx';
import { FeaResults } from '../../src/environment/results/FeaResults.tsx';
import { runSettingsSummary } from '../../src/environment/results/run-settings.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { applyResults } from '../../src/environment/workflows/apply-results.ts';
import { loadFile } from '../../src/environment/workflows/load-file.ts';
import { completedResults, FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

/** Row keys are React identities, generated anew on every restore; everything else must survive. */
function withoutKeys(form: AnalysisForm): unknown {
  return JSON.parse(JSON.stringify(form, (k, v) => (k === 'key' ? undefined : v)));
}

/** A form with every field away from its default, as a user would have set it (numbers as numberText). */
function everyFieldForm(): AnalysisForm {
  const f = defaultAnalysisForm();
  const t = numberText;
  return {
    ...f,
    analysisType: 'em',
    formulation: 'fullwave',
    frequencyHz: 2.4e9,
    tolerance: t(1e-8),
    maxIterations: '250',
    linearSolver: 'cg-bddc',
    defaultPermittivity: t(2.2 * 8.854e-12),
    defaultPermeability: t(1.3e-6),
    defaultConductivity: '0.5',
    density: '2700',
    heatCapacity: '900',
    useAnisotropicMaterials: true,
    anisotropicMaterials: [
      {
        ...newEmRows.anisotropic(0),
        id: '3',
        permittivity: ['2', '3', '4'],
        conductivity: ['0', '0.1', '0'],
      },
      { ...newEmRows.anisotropic(1), id: 'substrate', permeability: ['1', '1', '2.5'] },
    ],
    bodyMaterials: { 0: 'ptfe', 1: 'copper' },
    dirichletNodes: [
      { ...newEmRows.dirichletNode(), node: '0', voltage: '0' },
      { ...newEmRows.dirichletNode(), node: '7', voltage: '3.3' },
    ],
    dirichletFaceGroups: [
      { ...newEmRows.dirichletFaceGroup(0), name: 'ground', faces: '1, 2, 3' },
      { ...newEmRows.dirichletFaceGroup(1), name: 'signal', faces: '9', voltage: '5' },
    ],
    neumann: [{ ...newEmRows.neumann(), faces: '4, 5', flux: '-2.5' }],
    impedance: [{ ...newEmRows.impedance(), faces: '6', real: '75', imag: '-12.5' }],
    referenceNode: '3',
    transient: false,
    timeStep: t(2e-12),
    endTime: t(5e-9),
    timeScheme: 'explicit',
    pulseShape: 'modulated_gaussian',
    pulseWidth: t(1e-10),
    pulseDelay: t(3e-10),
    pulseFrequency: t(5e9),
    probes: [{ ...newProbeRow(0), name: 'mid', point: ['0.001', '0', t(-2e-4)] }],
    volumeCurrents: [
      { ...newEmRows.volumeCurrent(), density: ['0', '1', '0'], region: '1', phase: '90' },
      {
        ...newEmRows.volumeCurrent(),
        density: ['1', '0', '0'],
        region: '',
        boxMin: ['0', '0', '0'],
        boxMax: ['1', '1', '1'],
      },
    ],
    useCurvedMesh: true,
    useCurvedGeometry: true,
    meshOrder: 3,
    useRadialPML: true,
    pmlThickness: 0.25,
    pmlSigmaMax: t(5e5),
    useWavePorts: true,
    wavePorts: [
      { ...newEmRows.wavePort(0), faces: '11, 12', mode: 'TEM' },
      { ...newEmRows.wavePort(1), portID: 'out', faces: '13', mode: 'TE20', amplitude: '0.5', phase: '45' },
    ],
    portImpedance: '75',
    calculateSParameters: true,
    extractSParameters: true,
    sParamFreqMin: t(2e9),
    sParamFreqMax: t(6e9),
    sParamNumPoints: '401',
    sParamMethod: 'power_wave',
    sParamSweepType: 'adaptive',
    sParamAdaptiveTolerance: t(1e-5),
    animate: true,
    animationFrames: 120,
    gridFieldsEnabled: true,
    gridResolution: ['16', '8', '32'],
    gridPaddingFactor: 0.35,
    verbose: true,
    autoRunAnalysis: true,
    adaptiveEnabled: true,
    adaptiveTolerance: '0.02',
    adaptiveQuantity: 'S',
    adaptiveMaxPasses: '6',
    adaptiveMaxUnknowns: '150000',
    adaptiveFraction: '0.5',
  };
}

const bodies = [
  { region: 0, name: 'dielectric' },
  { region: 1, name: 'pin' },
];

const STRUCTURAL_KEYS: (keyof AnalysisForm)[] = [
  'physics',
  'thermalConditions',
  'heatSources',
  'jouleHeating',
  'thermalTransient',
  'thermalTimeStep',
  'thermalEndTime',
  'thermalScheme',
  'initialTemperature',
  'vibrationKind',
  'modalNumModes',
  'modalMinFrequency',
  'harmonicFreqMin',
  'harmonicFreqMax',
  'harmonicNumPoints',
  'dampingRatio',
  'rayleighAlpha',
  'rayleighBeta',
  'harmonicMethod',
  'structuralSupports',
  'structuralLoads',
  'gravityOn',
  'gravity',
  'bodyOverrides',
  // the chained and coupled fields (test/environment/chained-forms.test.ts round-trips them)
  'thermalInitialFrom',
  'thermalInitialJob',
  'thermalInitialFrame',
  'vibrationPrestress',
  'vibrationPrestressJob',
  'structuralTemperatureFrom',
  'structuralTemperature',
  'structuralTemperatureJob',
  'structuralReferenceTemperature',
];

describe('the structural form', () => {
  it('sends supports, loads, gravity and library materials with overrides, and reads them back', () => {
    const form: AnalysisForm = {
      ...defaultAnalysisForm(),
      physics: 'structural',
      meshOrder: 2,
      bodyMaterials: { 1: 'aluminium' },
      bodyOverrides: { 0: { youngsModulus: '210e9' } },
      structuralSupports: [
        { ...newStructuralRows.support(0), name: 'bolts', faces: '1, 2, 3' },
        {
          ...newStructuralRows.support(1),
          name: 'symmetry',
          kind: 'displacement',
          faces: '7',
          displacement: ['0', '', ''],
        },
        { ...newStructuralRows.support(2), faces: '' },
      ],
      structuralLoads: [
        { ...newStructuralRows.load(0), name: 'push', faces: '9', force: ['0', '0', '-500'] },
        { ...newStructuralRows.load(1), name: 'p', kind: 'pressure', faces: '10, 11', pressure: '2e5' },
      ],
      gravityOn: true,
      gravity: ['0', '0', '-9.81'],
    };
    const backend = toBackendConfig(form, { bodies });
    expect(AnalysisConfig.safeParse(backend).success).toBe(true);
    expect(backend).toMatchObject({
      analysisType: 'structural',
      meshOrder: 2,
      fixedSupports: [{ faces: [1, 2, 3], name: 'bolts' }],
      displacementConditions: [{ faces: [7], displacement: [0, null, null], name: 'symmetry' }],
      forceLoads: [{ faces: [9], force: [0, 0, -500], name: 'push' }],
      pressureLoads: [{ faces: [10, 11], pressure: 2e5, name: 'p' }],
      gravity: [0, 0, -9.81],
    });
    expect(backend.bodyMaterials).toEqual([
      {
        region: 0,
        name: 'dielectric',
        material: 'steel',
        youngsModulus: 210e9,
        poissonRatio: 0.3,
        density: 7850,
        yieldStrength: 250e6,
      },
      {
        region: 1,
        name: 'pin',
        material: 'aluminium',
        youngsModulus: 68.9e9,
        poissonRatio: 0.33,
        density: 2700,
        yieldStrength: 276e6,
      },
    ]);
    const { form: back } = fromBackendConfig(JSON.parse(JSON.stringify(backend)));
    expect(back.physics).toBe('structural');
    expect(
      toBackendConfig(
        { ...back, bodyMaterials: form.bodyMaterials, bodyOverrides: form.bodyOverrides },
        { bodies },
      ),
    ).toEqual(backend);
  });
});

describe('a family chosen after an EM set-up', () => {
  it('is not sent the EM switches the engine would list as unused (frequency, ports, sweep, PML)', () => {
    const em = {
      ...everyFieldForm(),
      frequencyHz: 10e9,
      transient: true,
      useRadialPML: true,
      useWavePorts: true,
      calculateSParameters: true,
      extractSParameters: true,
      animate: true,
    };
    for (const physics of ['structural', 'thermal', 'vibration'] as const) {
      const sent = toBackendConfig({ ...em, physics }, { bodies });
      expect(sent, physics).toMatchObject({
        frequency: 0,
        transient: false,
        useRadialPML: false,
        useWavePorts: false,
        wavePorts: [],
        calculateSParameters: false,
        extractSParameters: false,
        impedanceConditions: [],
        animate: false,
      });
    }
    // the EM run itself still gets them
    expect(toBackendConfig(em, { bodies })).toMatchObject({ frequency: 10e9, useWavePorts: true });
  });
});

describe('the thermal form', () => {
  it('sends conditions, sources, Joule heating with its terminals and the transient, and reads them back', () => {
    const form: AnalysisForm = {
      ...defaultAnalysisForm(),
      physics: 'thermal',
      bodyMaterials: { 0: 'copper' },
      thermalConditions: [
        { ...newThermalRows.condition(0, 'temperature'), name: 'base', faces: '1, 2', value: '350' },
        {
          ...newThermalRows.condition(1, 'convection'),
          name: 'air',
          faces: '3',
          value: '12',
          ambient: '300',
        },
        { ...newThermalRows.condition(2, 'radiation'), name: 'sky', faces: '4', value: '0.8', ambient: '0' },
        { ...newThermalRows.condition(3, 'flux'), name: 'sun', faces: '5', value: '800' },
      ],
      heatSources: [{ ...newThermalRows.source(), region: '1', kind: 'density', value: '1e5' }],
      jouleHeating: true,
      dirichletFaceGroups: [
        { ...newEmRows.dirichletFaceGroup(0), faces: '6', voltage: '0' },
        { ...newEmRows.dirichletFaceGroup(1), faces: '7', voltage: '0.5' },
      ],
      thermalTransient: true,
      thermalTimeStep: '0.5',
      thermalEndTime: '60',
      thermalScheme: 'implicit',
      initialTemperature: '300',
      probes: [{ ...newProbeRow(0), name: 'tip', point: ['1', '2', '3'] }],
    };
    const backend = toBackendConfig(form, { bodies });
    expect(AnalysisConfig.safeParse(backend).success).toBe(true);
    // the server's parse keeps every condition's name (the results' heat-flow table shows them)
    expect(AnalysisConfig.parse(backend).neumannConditions).toEqual([{ faces: [5], flux: 800, name: 'sun' }]);
    expect(backend).toMatchObject({
      analysisType: 'thermal-time',
      transient: false,
      temperatureConditions: [{ faces: [1, 2], temperature: 350, name: 'base' }],
      convectionConditions: [{ faces: [3], coefficient: 12, ambientTemperature: 300, name: 'air' }],
      radiationConditions: [{ faces: [4], emissivity: 0.8, ambientTemperature: 0, name: 'sky' }],
      neumannConditions: [{ faces: [5], flux: 800, name: 'sun' }],
      heatSources: [{ region: 1, powerDensity: 1e5 }],
      jouleHeating: true,
      dirichletFaceConditions: [
        { faces: [6], voltage: 0 },
        { faces: [7], voltage: 0.5 },
      ],
      timeStep: 0.5,
      endTime: 60,
      timeScheme: 'implicit',
      initialTemperature: 300,
      probePoints: [{ name: 'tip', point: [1, 2, 3] }],
    });
    expect(backend.bodyMaterials?.[0]).toMatchObject({
      material: 'copper',
      thermalConductivity: 401,
      conductivity: 5.8e7,
    });
    const { form: back } = fromBackendConfig(JSON.parse(JSON.stringify(backend)));
    expect(back.physics).toBe('thermal');
    expect(toBackendConfig(back, { bodies })).toEqual(backend);
  });
});

describe('the vibration form', () => {
  it('sends a modal run without loads and a harmonic sweep with them, and reads both back', () => {
    const base: AnalysisForm = {
      ...defaultAnalysisForm(),
      physics: 'vibration',
      meshOrder: 2,
      structuralSupports: [{ ...newStructuralRows.support(0), name: 'holes', faces: '1, 2' }],
      structuralLoads: [
        { ...newStructuralRows.load(0), name: 'shaker', faces: '9', force: ['0', '0', '-1'] },
      ],
      modalNumModes: '8',
      modalMinFrequency: '5',
    };
    const modal = toBackendConfig(base, { bodies });
    expect(AnalysisConfig.safeParse(modal).success).toBe(true);
    expect(modal).toMatchObject({
      analysisType: 'modal',
      modalNumModes: 8,
      modalMinFrequency: 5,
      fixedSupports: [{ faces: [1, 2], name: 'holes' }],
      forceLoads: [],
    });
    const harmonic = toBackendConfig(
      {
        ...base,
        vibrationKind: 'harmonic',
        harmonicFreqMax: '500',
        harmonicNumPoints: '51',
        dampingRatio: '0.05',
        rayleighAlpha: '3.2',
        rayleighBeta: '',
      },
      { bodies },
    );
    // the modal search's lower bound is not sent: superposition needs the lowest modes
    expect(harmonic.modalMinFrequency).toBeUndefined();
    expect(harmonic.rayleighBeta).toBeUndefined(); // blank: no stiffness-proportional term
    expect(harmonic).toMatchObject({
      analysisType: 'harmonic',
      harmonicFreqMin: 0,
      harmonicFreqMax: 500,
      harmonicNumPoints: 51,
      dampingRatio: 0.05,
      rayleighAlpha: 3.2,
      harmonicMethod: 'modal',
      forceLoads: [{ faces: [9], force: [0, 0, -1], name: 'shaker' }],
    });
    for (const sent of [modal, harmonic]) {
      const { form: back } = fromBackendConfig(JSON.parse(JSON.stringify(sent)));
      expect(back.physics).toBe('vibration');
      expect(toBackendConfig(back, { bodies })).toEqual(sent);
    }
  });
});

describe('fromBackendConfig (the reverse of toBackendConfig)', () => {
  it('round-trips form → backend → form for every field the form has', () => {
    const form = everyFieldForm();
    // the fixture really sets every field away from the default (a new field must be added here)
    const defaults = defaultAnalysisForm();
    for (const key of Object.keys(defaults) as (keyof AnalysisForm)[]) {
      // covered by the eigen / time-domain case below (an em run sends no eigen fields)
      if (['analysisType', 'transient', 'eigenNumModes', 'eigenFieldMode'].includes(key)) continue;
      // another family's fields (the structural round trip below covers them)
      if (STRUCTURAL_KEYS.includes(key)) continue;
      // thermal stress's own field (test/environment/thermal-stress-form.test.ts round-trips it)
      if (key === 'thermalStressReference') continue;
      // thermal's induction switch (test/environment/induction-heating-form.test.ts round-trips it)
      if (key === 'inductionHeating') continue;
      // the harmonic response's adaptation frequency (adaptive-refinement.test.tsx round-trips it)
      if (key === 'adaptiveFrequency') continue;
      // the magnetic analyses' fields (magnetics-config.test.ts round-trips them)
      if (key in defaultMagneticsForm()) continue;
      expect(JSON.stringify(form[key]), key).not.toBe(JSON.stringify(defaults[key]));
    }
    const backend = toBackendConfig(form, { bodies });
    expect(AnalysisConfig.safeParse(backend).success).toBe(true);
    const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(backend)));
    expect(reset).toEqual([]);
    expect(withoutKeys(back)).toEqual(withoutKeys(form));
    expect(toBackendConfig(back, { bodies })).toEqual(backend);
  });

  it('round-trips the transient (em-time) and eigenmode forms and the defaults', () => {
    const transient = {
      ...everyFieldForm(),
      transient: true,
      useRadialPML: false,
      formulation: 'auto' as const,
    };
    const tBack = fromBackendConfig(toBackendConfig(transient, { bodies }));
    expect(toBackendConfig(transient, { bodies }).analysisType).toBe('em-time');
    expect(withoutKeys(tBack.form)).toEqual(withoutKeys(transient));

    const eigen = {
      ...defaultAnalysisForm(),
      analysisType: 'em-eigen' as const,
      eigenNumModes: '12',
      eigenFieldMode: '2',
      frequencyHz: 5e9,
    };
    expect(withoutKeys(fromBackendConfig(toBackendConfig(eigen)).form)).toEqual(withoutKeys(eigen));
    expect(withoutKeys(fromBackendConfig(toBackendConfig(defaultAnalysisForm())).form)).toEqual(
      withoutKeys(defaultAnalysisForm()),
    );
  });

  it('falls back to the defaults for invalid values, names them, and never throws', () => {
    const { form, reset } = fromBackendConfig({
      analysisType: 'em',
      frequency: 9e12,
      meshOrder: 7,
      linearSolver: 'magic',
      sParamSweepType: 'fractal',
      sParamAdaptiveTolerance: 5,
      useWavePorts: 'yes',
      wavePorts: [{ portID: 1, faces: [3], mode: 'TE10' }, { faces: [0, -1], mode: 'TE10' }, 'junk'],
      dirichletFaceConditions: [{ faces: [1, 2], voltage: 1, name: 'a' }, { faces: [4] }],
      dirichletConditions: { '5': 2, x: 1 },
      gridResolution: [0, 10, 10],
      bodyMaterials: [
        { region: 0, relativePermittivity: 3.7, relativePermeability: 1, conductivity: 0, lossTangent: 0 },
      ],
      tolerance: 'tight',
      referenceNode: -4,
    });
    const d = defaultAnalysisForm();
    expect(form.frequencyHz).toBe(d.frequencyHz);
    expect(form.meshOrder).toBe(1);
    expect(form.linearSolver).toBe('auto');
    expect(form.sParamSweepType).toBe('uniform');
    expect(form.sParamAdaptiveTolerance).toBe(d.sParamAdaptiveTolerance);
    expect(form.useWavePorts).toBe(false);
    expect(form.wavePorts.map((p) => p.faces)).toEqual(['3']); // the valid port is kept
    expect(form.dirichletFaceGroups.map((g) => g.name)).toEqual(['a']);
    expect(form.dirichletNodes.map((n) => [n.node, n.voltage])).toEqual([['5', '2']]);
    expect(form.gridResolution).toEqual(d.gridResolution);
    expect(form.tolerance).toBe(d.tolerance);
    expect(form.referenceNode).toBe('');
    // the common fields are read first, then the family's (config/from-backend-config.ts): compared as a set
    expect(reset).toHaveLength(14);
    expect(new Set(reset)).toEqual(
      new Set([
        'frequency',
        'tolerance',
        'linearSolver',
        'bodyMaterials[1]',
        'dirichletConditions[x]',
        'dirichletFaceConditions[2]',
        'referenceNode',
        'meshOrder',
        'useWavePorts',
        'wavePorts[2]',
        'wavePorts[3]',
        'sParamSweepType',
        'sParamAdaptiveTolerance',
        'gridResolution',
      ]),
    );
    expect(
      restoreNotice([
        'frequency',
        'tolerance',
        'linearSolver',
        'bodyMaterials[1]',
        'wavePorts[2]',
        'meshOrder',
        'gridResolution',
        'referenceNode',
      ]),
    ).toBe(
      'Some saved run settings could not be read and were reset to their defaults: frequency, tolerance, linearSolver, bodyMaterials[1], wavePorts[2], meshOrder and 2 more.',
    );
    expect(fromBackendConfig('nonsense').reset).toEqual(['analysis configuration']);
    expect(fromBackendConfig({ analysisType: 'tetra-only' }).reset).toEqual(['analysisType']);
    expect(restoreNotice([])).toBeNull();
  });
});

const file = (name: string, content: object) => new File([JSON.stringify(content)], name);

function configuredForm(): AnalysisForm {
  return {
    ...defaultAnalysisForm(),
    frequencyHz: 1.5e9,
    meshOrder: 2,
    linearSolver: 'direct',
    dirichletFaceGroups: [
      { ...newEmRows.dirichletFaceGroup(0), name: 'ground', faces: '1, 2' },
      { ...newEmRows.dirichletFaceGroup(1), name: 'signal', faces: '4', voltage: '5' },
    ],
  };
}

describe('loading a results file', () => {
  it('with analysis_config: restores the form and keeps the config with the results', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    const analysis_config = toBackendConfig(configuredForm());
    await loadFile(file('saved.json', { ...completedResults, analysis_config }), deps);
    const s = store.get();
    expect(s.analysis.status).toBe('completed');
    expect(s.results?.analysisConfig).toEqual(analysis_config);
    expect(s.form.frequencyHz).toBe(1.5e9);
    expect(s.form.meshOrder).toBe(2);
    expect(s.form.dirichletFaceGroups.map((g) => [g.name, g.faces, g.voltage])).toEqual([
      ['ground', '1, 2', '0'],
      ['signal', '4', '5'],
    ]);
    expect(s.formRestore).toEqual({ fileName: 'saved.json', notice: null });
    // the restored form runs the same analysis again
    expect(toBackendConfig(s.form)).toEqual(analysis_config);
  });

  it('a completed job keeps its config with the results and leaves the form as the user set it', () => {
    const { deps, store } = makeDeps(new FakeServer());
    const form = configuredForm();
    store.set({ form });
    const analysis_config = toBackendConfig(form);
    applyResults({ ...completedResults, analysis_config }, deps);
    expect(store.get().results?.analysisConfig).toEqual(analysis_config);
    expect(store.get().form).toBe(form);
    expect(store.get().formRestore).toBeNull();
  });

  it('with a partly invalid config: restores what it can and says what was reset', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    const analysis_config = { ...toBackendConfig(configuredForm()), meshOrder: 9 };
    await loadFile(file('odd.json', { ...completedResults, analysis_config }), deps);
    expect(store.get().form.meshOrder).toBe(1);
    expect(store.get().form.frequencyHz).toBe(1.5e9);
    expect(store.get().formRestore?.notice).toContain('meshOrder');
  });

  it('without a config (older files): the form is left as it was', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    store.set({ form: { ...defaultAnalysisForm(), frequencyHz: 3e9, meshOrder: 3 } });
    const before = store.get().form;
    await loadFile(file('old.json', completedResults), deps);
    const s = store.get();
    expect(s.analysis.status).toBe('completed');
    expect(s.results?.analysisConfig).toBeNull();
    expect(s.formRestore).toBeNull();
    expect(s.form.frequencyHz).toBe(before.frequencyHz);
    expect(s.form.meshOrder).toBe(3);
  });

  it('a results file without a volume mesh keeps its config for the summary but does not restore the form', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    const surfaceOnly = { ...completedResults, tetrahedra: undefined };
    const analysis_config = toBackendConfig(configuredForm());
    await loadFile(file('surface.json', { ...surfaceOnly, analysis_config }), deps);
    expect(store.get().results?.analysisConfig).toEqual(analysis_config);
    expect(store.get().formRestore).toBeNull();
    expect(store.get().form.frequencyHz).toBe(0);
  });
});

describe('Run settings summary', () => {
  it('says analysis, frequency, terminals, mesh order and solver of a static run', () => {
    expect(runSettingsSummary(toBackendConfig({ ...configuredForm(), frequencyHz: 0 }))).toEqual([
      ['Analysis', 'Static (em, DC)'],
      ['Frequency', 'DC'],
      ['Terminals', 'ground 0 V, signal 5 V'],
      ['Mesh order', '2'],
      ['Solver', 'direct'],
    ]);
  });

  it('says the band, sweep type and ports of an S-parameter run', () => {
    const form = everyFieldForm();
    const rows = Object.fromEntries(runSettingsSummary(toBackendConfig({ ...form, formulation: 'auto' })));
    expect(rows.Analysis).toBe('Frequency domain (em)');
    expect(rows.Frequency).toBe('2.4 GHz');
    expect(rows['S-parameter band']).toBe('2 GHz – 6 GHz, 401 points, adaptive (tol 1e-5)');
    expect(rows.Ports).toBe('2 wave ports (1: TEM, out: TE20), renormalised to 75 Ω');
    const modal = toBackendConfig({ ...form, sParamMethod: 'wave_port' });
    expect(Object.fromEntries(runSettingsSummary(modal)).Ports).toBe(
      '2 wave ports (1: TEM, out: TE20), modal S',
    );
    expect(rows['Mesh order']).toBe('3, curved');
    expect(rows.Solver).toBe('cg-bddc, tolerance 1e-8');
    const time = Object.fromEntries(runSettingsSummary(toBackendConfig({ ...form, transient: true })));
    expect(time.Analysis).toBe('Time domain (em-time)');
    expect(time.Excitation).toBe('modulated gaussian pulse, Δt 2 ps to 5 ns');
  });

  it('says modes, band, damping and supports of a vibration run (no EM "Frequency DC")', () => {
    const vibration: AnalysisForm = {
      ...defaultAnalysisForm(),
      physics: 'vibration',
      meshOrder: 2,
      structuralSupports: [{ ...newStructuralRows.support(0), faces: '1, 2, 3, 4' }],
      structuralLoads: [{ ...newStructuralRows.load(0), faces: '9, 10', force: ['0', '0', '-1'] }],
    };
    expect(runSettingsSummary(toBackendConfig(vibration, { bodies }))).toEqual([
      ['Analysis', 'Natural frequencies (modal)'],
      ['Modes', '6'],
      ['Supports', '1 on 4 faces'],
      ['Mesh order', '2'],
      ['Solver', 'auto, tolerance 1e-6'],
    ]);
    const harmonic = toBackendConfig(
      { ...vibration, vibrationKind: 'harmonic', harmonicFreqMax: '500', harmonicNumPoints: '101' },
      { bodies },
    );
    expect(runSettingsSummary(harmonic)).toEqual([
      ['Analysis', 'Harmonic response (harmonic)'],
      ['Modes', '6'],
      ['Band', '0 Hz – 500 Hz, 101 points'],
      ['Damping', 'ζ = 0.02, mode superposition'],
      ['Supports', '1 on 4 faces'],
      ['Loads', '1 force, 0 pressure on 2 faces'],
      ['Mesh order', '2'],
      ['Solver', 'auto, tolerance 1e-6'],
    ]);
  });

  it('is shown in the results panel with the restore note, and absent for older files', async () => {
    const { deps } = makeDeps(new FakeServer());
    const analysis_config = toBackendConfig(configuredForm());
    await loadFile(file('saved.json', { ...completedResults, analysis_config }), deps);
    const bridge = new ViewerBridge(window, window.location.origin);
    const services = { store: deps.store, deps, bridge, jobs: createJobControls() };
    const { unmount } = render(
      <EnvironmentContext.Provider value={services}>
        <FeaResults />
      </EnvironmentContext.Provider>,
    );
    const panel = screen.getByTestId('run-settings');
    expect(panel.textContent).toContain('Frequency domain (em)');
    expect(panel.textContent).toContain('1.5 GHz');
    expect(panel.textContent).toContain('ground 0 V, signal 5 V');
    expect(screen.getByTestId('form-restored').textContent).toContain('saved.json');
    unmount();

    await loadFile(file('old.json', completedResults), deps);
    render(
      <EnvironmentContext.Provider value={services}>
        <FeaResults />
      </EnvironmentContext.Provider>,
    );
    expect(screen.getByTestId('fea-results')).toBeTruthy();
    expect(screen.queryByTestId('run-settings')).toBeNull();
  });
});

describe('natural frequencies table', () => {
  it('says its mass columns are cumulative (qa29: mode 1 "0.0 % / 15.9 % / 45.3 %" read as its own share)', () => {
    const { deps } = makeDeps(new FakeServer());
    const bridge = new ViewerBridge(window, window.location.origin);
    const services = { store: deps.store, deps, bridge, jobs: createJobControls() };
    const modes = [
      { mode: 1, frequency: 814, rigid_body: false, effective_mass_fraction_cumulative: [0, 0.159, 0.453] },
      { mode: 2, frequency: 814.1, rigid_body: false, effective_mass_fraction_cumulative: [0, 0.611, 0.611] },
    ];
    render(
      <EnvironmentContext.Provider value={services}>
        <VibrationModes result={{ modes }} />
      </EnvironmentContext.Provider>,
    );
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Mode', 'Frequency', 'Cumulative mass x / y / z']);
    expect(screen.getByTestId('mode-2').textContent).toContain('0.0 % / 61.1 % / 61.1 %');
  });
});
