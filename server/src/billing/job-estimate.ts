import {
  ADAPTIVE_SWEEP_MAX_SOLVES,
  type AnalysisConfig,
  addedAirTetrahedra,
  estimateResources,
  type MeshData,
} from '@fieldline/contracts';

/**
 * A deliberately generous estimate of a job's compute time, checked against the user's balance before the
 * job is queued (the job is then charged for the time it really uses). One function per physics family:
 * work grows with the tetrahedra and the element order (DOFs ~ order³), and with what the family repeats —
 * the frequency points of an S-parameter sweep, the time steps of a transient run, the modes of an eigen
 * solve or the points of a harmonic sweep.
 */
type Estimate = (tets: number, order: number, config: AnalysisConfig, airTets?: number) => number;

// `airTets`: the air a magnetic run meshes around a bare device (docs/magnetics.md §4), solved with it.
const em: Estimate = (deviceTets, order, config, airTets = 0) => {
  const tets = deviceTets + airTets;
  const wantsS = config.calculateSParameters || config.extractSParameters;
  const points = wantsS ? config.sParamNumPoints : 1;
  const timeDomain = config.analysisType === 'em-time' || config.transient;
  // the adaptive sweep stops at ADAPTIVE_SWEEP_MAX_SOLVES full solves (its reduced solves cost next to nothing);
  // a time-domain run reads its spectrum off its signals, and a full S-matrix steps one more pulse a port
  // (docs/transient.md): the frequency points cost nothing there
  const sweep = timeDomain
    ? wantsS
      ? Math.max(1, config.wavePorts.length)
      : 1
    : config.sParamSweepType === 'adaptive'
      ? Math.min(points, ADAPTIVE_SWEEP_MAX_SOLVES)
      : points;
  const steps = timeDomain ? Math.min(1e5, Math.ceil(config.endTime / config.timeStep)) / 100 : 1;
  return 2e-3 * tets * order ** 3 * Math.max(1, sweep) * Math.max(1, steps);
};

// Three displacement components per node: about three times a scalar problem's unknowns.
const structural: Estimate = (tets, order) => 6e-3 * tets * order ** 3;

// A scalar unknown per node; a transient run repeats a cheap solve per step (one factorisation). Induction
// heating solves the eddy-current field first (docs/magnetics.md §8): one complex Nédélec solve, as em's.
const thermal: Estimate = (tets, order, config, airTets = 0) => {
  const steps =
    config.analysisType === 'thermal-time' || config.transient
      ? Math.min(1e5, Math.ceil(config.endTime / config.timeStep))
      : 1;
  const induction = config.inductionHeating ? 2e-3 * (tets + airTets) * order ** 3 : 0;
  return 2e-3 * tets * order ** 3 * (1 + steps / 20) + induction;
};

// An eigen solve: one factorisation and a few dozen substitutions; a harmonic sweep adds the band's points;
// a prestressed modal run solves its loads first.
const vibration: Estimate = (tets, order, config) =>
  structural(tets, order, config) * (config.prestress ? 5 : 4) +
  (config.analysisType === 'harmonic' ? 1e-4 * tets * config.harmonicNumPoints : 0);

// Thermal stress: the steady thermal solve (Joule heating adds its conduction solve), then elasticity.
const thermalStructural: Estimate = (tets, order, config, airTets = 0) =>
  thermal(tets, order, { ...config, transient: false }, airTets) * (config.jouleHeating ? 2 : 1) +
  structural(tets, order, config);

const ESTIMATES: Record<string, Estimate> = {
  modal: vibration,
  harmonic: vibration,
  thermal,
  'thermal-time': thermal,
  em,
  'em-time': em,
  'em-eigen': em,
  magnetostatic: em,
  'eddy-current': em,
  structural,
  'thermal-structural': thermalStructural,
};

export function estimateSeconds(mesh: MeshData, config: AnalysisConfig, minSeconds: number): number {
  const tets = mesh.tetrahedra?.length ?? 0;
  const order = config.meshOrder ?? 1;
  const family = ESTIMATES[config.analysisType] ?? em;
  const work =
    30 +
    (config.adaptiveRefinement
      ? adaptiveWork(mesh, config, family)
      : family(tets, order, config, addedAirTetrahedra(mesh, config)));
  return Math.max(minSeconds, Math.ceil(work));
}

/**
 * Adaptive refinement (docs/adaptive.md) may grow the model up to `maxUnknowns`, and every pass solves again:
 * with the unknowns growing geometrically from pass to pass, all passes together cost about twice the largest
 * one. A full-wave or harmonic run's passes solve one frequency; its sweep then runs once on the final mesh.
 */
function adaptiveWork(mesh: MeshData, config: AnalysisConfig, family: Estimate): number {
  const tets = mesh.tetrahedra?.length ?? 0;
  const order = config.meshOrder ?? 1;
  const estimate = estimateResources(mesh, config);
  const start = Math.max(1, estimate.startUnknowns ?? estimate.unknowns);
  const grownTets = tets * Math.max(1, estimate.unknowns / start);
  // Full-wave and harmonic passes solve the adaptation frequency alone; the sweep runs once on the final mesh.
  // A transient's passes each run the whole transient (the family's estimate counts its steps); a time-domain
  // EM run's S-parameters come out of each pass's own run, so there is no reduced pass and no final sweep.
  const harmonic = config.analysisType === 'harmonic';
  const timeDomain = config.analysisType === 'em-time' || (config.analysisType === 'em' && config.transient);
  const sweeps = !timeDomain && (config.calculateSParameters || config.extractSParameters || harmonic);
  const passConfig = harmonic
    ? { ...config, harmonicNumPoints: 1 }
    : sweeps
      ? { ...config, sParamNumPoints: 1, sParamSweepType: 'uniform' as const }
      : config;
  const air = addedAirTetrahedra(mesh, config);
  const passes = 2 * family(grownTets, order, passConfig, air);
  return sweeps ? passes + family(grownTets, order, config, air) : passes;
}
