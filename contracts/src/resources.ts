import { type AnalysisConfig, TRANSIENT_TWINS } from './analysis/index.ts';
import { addedAirEstimate } from './analysis/magnetics-air.ts';

/**
 * What a run will need, estimated before it is queued from the mesh, the element order and the
 * analysis: the number of unknowns (exact: counted from the mesh's edges and faces as NGSolve lays out
 * its spaces) and the peak memory of the engine process (a model fitted to measured runs,
 * bench/estimate/). The environment shows it beside Run Analysis; the server refuses a run whose
 * estimate is over the worker's memory limit, with advice, instead of letting it be killed halfway.
 */

/** H1 (a potential, a temperature), three H1 components (a displacement) or Nédélec HCurl (E). */
export type DiscreteSpace = 'h1' | 'vector-h1' | 'hcurl';

export interface MeshTopology {
  vertices: number;
  edges: number;
  faces: number;
  cells: number;
}

export interface ResourceEstimate {
  unknowns: number;
  space: DiscreteSpace;
  complex: boolean;
  solver: 'direct' | 'iterative';
  /** Peak address space of the engine process, the quantity JOB_MEMORY_LIMIT_MB limits. */
  memoryBytes: number;
  /** With adaptive refinement: the start mesh's unknowns; `unknowns` and the memory are then the largest
   * model the refinement may grow to (`maxUnknowns`), which is what the run is checked and charged for. */
  startUnknowns?: number;
  /** Magnetic runs on a bare device: the tetrahedra of the air the engine meshes around it (counted in
   * `unknowns`), estimated (contracts/src/analysis/magnetics-air.ts). */
  addedAirTetrahedra?: number;
}

/**
 * Vertices, edges, faces and cells of a tetrahedral mesh from its counts, in O(1): every face bounds two
 * cells except the boundary triangles (F = 2T + F_b/2), and Euler's formula for a connected solid without
 * cavities or handles (V − E + F − T = 1) gives the edges. Exact for such meshes; a hole or an internal
 * interface listed among the surface triangles moves the count by a fraction of a percent.
 */
export function meshTopology(vertices: number, cells: number, boundaryFaces: number): MeshTopology {
  const faces = 2 * cells + Math.ceil(boundaryFaces / 2);
  const edges = Math.max(0, vertices + faces - cells - 1);
  return { vertices, edges, faces, cells };
}

/** Unknowns of NGSolve's spaces at order p (checked against the engine's matrix_size in server/test/resources.test.ts). */
export function countUnknowns(topo: MeshTopology, space: DiscreteSpace, order: number): number {
  const p = order;
  if (space === 'hcurl') {
    // Nédélec, NGSolve's full order-p space: p+1 per edge, (p−1)(p+1) per face, (p−1)(p+1)(p−2)/2 per cell.
    return (
      topo.edges * (p + 1) + topo.faces * (p - 1) * (p + 1) + (topo.cells * (p - 1) * (p + 1) * (p - 2)) / 2
    );
  }
  const scalar =
    topo.vertices +
    topo.edges * (p - 1) +
    (topo.faces * (p - 1) * (p - 2)) / 2 +
    (topo.cells * (p - 1) * (p - 2) * (p - 3)) / 6;
  return space === 'vector-h1' ? 3 * scalar : scalar;
}

/** The engine's choice of solver path for an `em` job (engine/fieldline_engine/em/routing.py). */
export function emIsFullWave(config: AnalysisConfig): boolean {
  const mode = String((config as { mode?: string }).mode ?? '').toLowerCase();
  if (['fullwave', 'full-wave', 'full_wave', 'rf'].includes(mode)) return true;
  const ports = Boolean(config.useWavePorts) && (config.wavePorts?.length ?? 0) > 0;
  if ((config.calculateSParameters || config.extractSParameters) && ports) return true;
  if (!(config.frequency > 0)) return false;
  if (['quasistatic', 'quasi-static', 'static', 'electrostatic'].includes(mode)) return false;
  return ports || Boolean(config.useRadialPML) || (config.impedanceConditions?.length ?? 0) > 0;
}

// Above this size `linearSolver: auto` goes iterative for the H1 families (engine core/linear_solve.py).
export const DIRECT_SOLVER_MAX_DOFS = 60_000;
// ...but for structural at order ≥ 2 already above this (its two-level CG beats the factorisation there).
export const TWO_LEVEL_DIRECT_MAX_DOFS = 30_000;
// ...and for full-wave, GMRES + BDDC (engine em/fullwave/iterative.py), or earlier if the factor would not fit.
export const FULLWAVE_DIRECT_MAX_DOFS = 100_000;
// ...and for em-eigen, LOBPCG with BDDC and a gradient projection for lossless cavities (engine
// em/fullwave/eigen_iterative.py) or shift-and-invert Arnoldi with GMRES + BDDC inner solves for lossy ones
// (eigen_shift_invert.py), or earlier if the factor of the shifted system would not fit.
export const EIGEN_DIRECT_MAX_DOFS = 100_000;
// ...and for modal (and harmonic by modes), LOBPCG with the two-level preconditioner (engine
// vibration/modal.py), or earlier if the factor of K − σM would not fit.
export const MODAL_DIRECT_MAX_DOFS = 400_000;

interface SolverPath {
  space: DiscreteSpace;
  complex: boolean;
  alwaysDirect: boolean;
  fullWave?: boolean;
  /** Modal eigen solve: direct (shift-and-invert Lanczos) or LOBPCG, chosen by size and memory. */
  modal?: boolean;
  /** Cavity eigen solve: direct (shift-and-invert Arnoldi) or iterative (LOBPCG + BDDC; lossy: Arnoldi with
   * GMRES + BDDC inner solves). */
  cavityEigen?: boolean;
  structural?: boolean;
}

/** Conductivity, a loss tangent or an impedance wall: a complex cavity problem (Q factors). */
function emLossy(config: AnalysisConfig): boolean {
  const c = config as {
    bodyMaterials?: { conductivity?: number; lossTangent?: number }[];
    useAnisotropicMaterials?: boolean;
    anisotropicMaterials?: { conductivity?: number[] }[];
    impedanceConditions?: unknown[];
  };
  if ((c.impedanceConditions?.length ?? 0) > 0) return true;
  if ((c.bodyMaterials ?? []).some((m) => Number(m.conductivity) > 0 || Number(m.lossTangent) > 0))
    return true;
  return (
    Boolean(c.useAnisotropicMaterials) &&
    (c.anisotropicMaterials ?? []).some((m) => (m.conductivity ?? []).some((v) => v !== 0))
  );
}

function spaceOf(config: AnalysisConfig): SolverPath {
  const type = (config.transient && TRANSIENT_TWINS[config.analysisType]) || config.analysisType;
  switch (type) {
    case 'structural':
    case 'thermal-structural': // the elasticity step is the larger of its two solves
      return { space: 'vector-h1', complex: false, alwaysDirect: false, structural: true };
    case 'modal':
      // A band above modalMinFrequency needs the shift-and-invert factor.
      return {
        space: 'vector-h1',
        complex: false,
        alwaysDirect: Number(config.modalMinFrequency) > 0,
        modal: true,
      };
    case 'harmonic':
      // The full method (a validation path) factors the whole system at every frequency.
      return {
        space: 'vector-h1',
        complex: false,
        alwaysDirect: config.harmonicMethod === 'full' || Number(config.modalMinFrequency) > 0,
        modal: true,
      };
    case 'thermal':
    case 'thermal-time':
      return { space: 'h1', complex: false, alwaysDirect: false };
    case 'em-time':
      return { space: 'hcurl', complex: false, alwaysDirect: true };
    case 'magnetostatic':
      return { space: 'hcurl', complex: false, alwaysDirect: false };
    case 'eddy-current':
      return { space: 'hcurl', complex: true, alwaysDirect: false };
    case 'em-eigen': {
      const lossy = emLossy(config);
      return { space: 'hcurl', complex: lossy, alwaysDirect: false, cavityEigen: true };
    }
    default:
      return emIsFullWave(config)
        ? { space: 'hcurl', complex: true, alwaysDirect: false, fullWave: true }
        : { space: 'h1', complex: config.frequency > 0, alwaysDirect: false };
  }
}

/**
 * Peak address space of the engine process — what JOB_MEMORY_LIMIT_MB limits (RLIMIT_AS) — fitted to
 * bench/estimate runs: about 1 GB with Netgen/NGSolve loaded and their threads started, plus a sparse
 * factorisation's fill growing as n^(4/3) in 3D (nested dissection), or for CG with BDDC/AMG a cost
 * linear in the unknowns.
 */
export const MEMORY_MODEL = {
  baseBytes: 1.0e9,
  // ...of which the process actually touches little: a 27-unknown electrostatic job peaks at 132 MB resident
  // (/usr/bin/time %M) with 873 MB of address space on two threads started cold, 181 MB resident with 1.14 GB
  // of address space on a standby process (warmed up on every space and solver first; qa32). The rest is
  // reserved, not used: library mappings and, per NGSolve thread, a stack and malloc arenas (cold: 630 MB at one
  // thread, 1.16 GB at four, 1.93 GB at eight; resident 131–132 MB throughout). The environment says so under
  // the estimate, with the standby figure (ENGINE_STANDBY is on by default).
  baseResidentBytes: 1.8e8,
  // Bytes per n^(4/3), real arithmetic; complex doubles the entries. A displacement couples three
  // components per node (3 × 3 blocks), so its fill per unknown is about twice a scalar's.
  direct: { h1: 115, 'vector-h1': 210, hcurl: 220, exponent: 4 / 3 } as Record<DiscreteSpace, number> & {
    exponent: number;
  },
  // The full-wave direct solve is UMFPACK's LU of the complex system, more than the Nédélec fill above:
  // bench/scale's WR-90 at 367 k unknowns peaked at 14.33 GB, where 220 gave 12.6 GB (0.88×, so a job
  // admitted just under its limit would have been killed). 255 puts bench/estimate's 11 k and 81 k rungs and
  // this one at 1.04, 1.08 and 1.01× (bench/scale/README.md).
  fullWaveDirect: 255,
  iterativeBytesPerUnknown: 4000,
  // LOBPCG (block of 15 for 10 modes) with the two-level preconditioner: K and M, the vertex-DOF factor and
  // about twenty block vectors. bench/vibration: 0.40 GB peak RSS at 42 k unknowns, 1.13 GB at 0.21 M, 5.32 GB
  // at 1.05 M (estimates 1.19, 1.94, 5.73 GB).
  modalIterativeBytesPerUnknown: 4500,
  // GMRES + BDDC on complex Nédélec: the matrix, BDDC's element matrices and wirebasket factor, and a
  // Krylov basis of 60 vectors. bench/scale, WR-90 order 2, VmPeak: 2.22 GB at 367 k unknowns, 4.17 GB at
  // 975 k, 7.83 GB at 2.06 M (estimates 2.73, 5.58, 10.68 GB: 1.23–1.36×; `npx tsx bench/scale/estimate.ts`).
  fullWaveIterativeBytesPerUnknown: 4700,
  // em-eigen's direct path (UMFPACK's LU of K − σM, shift-and-invert Arnoldi), bytes per n^(4/3) per real
  // entry: bench/scale/eigen.py measured 2.04 GB VmPeak at 73 k unknowns (341 B above the base) and a failed
  // factorization under a 12 GB limit at 367 k (≥ 418 B).
  eigenDirect: 450,
  // LOBPCG for cavity modes (engine em/fullwave/eigen_iterative.py): curl-curl + τ·mass and the mass (half
  // stored), BDDC on it, the H1 Laplacian of the gradient projection with its BDDC, and about ten n × block work
  // arrays (block 10 for 6 modes). bench/scale/eigen.py (one thread): VmPeak 1.24 GB at 16 k unknowns, 1.51 GB
  // at 73 k (estimates 1.11 and 1.51 GB); set from the 73 k run, where the per-unknown part dominates.
  eigenIterativeBytesPerUnknown: 7000,
  // Lossy cavities (engine em/fullwave/eigen_shift_invert.py): shift-and-invert Arnoldi whose inner solves are
  // GMRES + BDDC on the complex K − σM (half stored), the complex H1 Laplacian of the projection with its BDDC,
  // GMRES's Krylov basis (80 vectors) and ARPACK's 20. bench/scale/eigen.py --loss-tangent 0.001 (2 threads):
  // VmPeak 1.48 GB at 16 k unknowns, 1.71 GB at 73 k, 1.81 GB at 120 k (estimates 1.11, 1.51, 1.84 GB: 0.75×,
  // 0.89×, 1.02×); the slope is 2–4 kB per unknown, so 7 kB errs safe beyond (≈ 1.5× at 1 M, extrapolated).
  eigenLossyIterativeBytesPerUnknown: 7000,
  // Structural CG at order ≥ 2 (engine structural/static.py, not cg-bddc): the half-stored
  // stiffness, its diagonal and an AMG hierarchy of the first-order problem. bench/structural LE10 peak
  // resident: 1.43 GB at 1.0 M unknowns, 2.64 GB at 2.0 M (≈ 1.2 kB per unknown above the libraries). Below
  // 30 k vertex unknowns K is node-blocked with block-Jacobi patches: 312 MB at 129 k. A run under `auto` that
  // stalls (thin parts) is finished by the factorisation only when the engine's own estimate of the factor
  // (`direct` above, with the base) fits the job's memory limit, so the limit holds either way.
  structuralIterativeBytesPerUnknown: 1500,
} as const;

function directBytes(
  space: DiscreteSpace,
  complex: boolean,
  unknowns: number,
  fullWave = false,
  cavityEigen = false,
): number {
  const m = MEMORY_MODEL;
  const perEntry = fullWave ? m.fullWaveDirect : cavityEigen ? m.eigenDirect : m.direct[space];
  return perEntry * (complex ? 2 : 1) * unknowns ** m.direct.exponent;
}

function usesDirect(
  path: SolverPath,
  config: AnalysisConfig,
  unknowns: number,
  limitBytes?: number,
): boolean {
  const choice = config.linearSolver ?? 'auto';
  if (path.alwaysDirect || choice === 'direct') return true;
  if (choice !== 'auto') return false;
  if (path.cavityEigen) {
    const fits =
      limitBytes === undefined ||
      MEMORY_MODEL.baseBytes + directBytes('hcurl', path.complex, unknowns, false, true) <= limitBytes;
    return unknowns <= EIGEN_DIRECT_MAX_DOFS && fits;
  }
  if (path.modal) {
    const fits =
      limitBytes === undefined ||
      MEMORY_MODEL.baseBytes + directBytes('vector-h1', false, unknowns) <= limitBytes;
    return unknowns <= MODAL_DIRECT_MAX_DOFS && fits;
  }
  if (!path.fullWave) {
    return unknowns <= (usesTwoLevel(path, config) ? TWO_LEVEL_DIRECT_MAX_DOFS : DIRECT_SOLVER_MAX_DOFS);
  }
  const fits =
    limitBytes === undefined ||
    MEMORY_MODEL.baseBytes + directBytes('hcurl', true, unknowns, true) <= limitBytes;
  return unknowns <= FULLWAVE_DIRECT_MAX_DOFS && fits;
}

/** Structural CG at order ≥ 2 with the engine's two-level preconditioner (any iterative choice but cg-bddc). */
function usesTwoLevel(path: SolverPath, config: AnalysisConfig): boolean {
  return Boolean(path.structural) && (config.meshOrder ?? 1) >= 2 && config.linearSolver !== 'cg-bddc';
}

function iterativeBytesPerUnknown(path: SolverPath, config: AnalysisConfig): number {
  const m = MEMORY_MODEL;
  if (path.fullWave) return m.fullWaveIterativeBytesPerUnknown;
  if (path.cavityEigen) {
    return path.complex ? m.eigenLossyIterativeBytesPerUnknown : m.eigenIterativeBytesPerUnknown;
  }
  if (path.modal) return m.modalIterativeBytesPerUnknown;
  return usesTwoLevel(path, config) ? m.structuralIterativeBytesPerUnknown : m.iterativeBytesPerUnknown;
}

/**
 * `memoryLimitBytes`, the job's limit where known, steers `auto` on the full-wave and modal paths as the engine does:
 * a factorisation that would not fit goes iterative.
 */
export function estimateResources(
  mesh: { vertices: readonly unknown[]; faces: readonly unknown[]; tetrahedra?: readonly unknown[] | null },
  config: AnalysisConfig,
  memoryLimitBytes?: number,
): ResourceEstimate {
  const air = addedAirEstimate(mesh, config as unknown as Record<string, unknown>);
  const topo = solvedTopology(mesh, air);
  const unknowns = countUnknowns(topo, spaceOf(config).space, config.meshOrder ?? 1);
  const adaptive = config.adaptiveRefinement;
  const own = adaptive
    ? // Refinement may grow the model up to maxUnknowns: memory and time are estimated for that size.
      {
        ...estimateForUnknowns(Math.max(unknowns, adaptive.maxUnknowns), config, memoryLimitBytes),
        startUnknowns: unknowns,
      }
    : estimateForUnknowns(unknowns, config, memoryLimitBytes);
  if (air) own.addedAirTetrahedra = air.tetrahedra;
  // Induction heating solves the config's eddy-current setup first, on the same mesh (docs/magnetics.md §8):
  // complex Nédélec unknowns, several times the temperature's; the run's peak is the larger of the two solves.
  const twin = inductionTwin(config);
  if (!twin) return own;
  const twinAir = addedAirEstimate(mesh, twin as unknown as Record<string, unknown>);
  const eddy = estimateForUnknowns(
    countUnknowns(solvedTopology(mesh, twinAir), 'hcurl', config.meshOrder ?? 1),
    twin,
    memoryLimitBytes,
  );
  if (twinAir) eddy.addedAirTetrahedra = twinAir.tetrahedra;
  return eddy.memoryBytes > own.memoryBytes ? eddy : own;
}

/** The mesh the engine solves on: the model, and the air it adds around a bare magnetic device. */
function solvedTopology(
  mesh: { vertices: readonly unknown[]; faces: readonly unknown[]; tetrahedra?: readonly unknown[] | null },
  air: ReturnType<typeof addedAirEstimate>,
): MeshTopology {
  return meshTopology(
    mesh.vertices.length + (air?.vertices ?? 0),
    (mesh.tetrahedra?.length ?? 0) + (air?.tetrahedra ?? 0),
    mesh.faces.length + (air?.boundaryFaces ?? 0),
  );
}

/** Tetrahedra of the air a run (or an induction-heated thermal run's eddy-current solve) adds: 0 if none. */
export function addedAirTetrahedra(
  mesh: { vertices: readonly unknown[]; tetrahedra?: readonly unknown[] | null },
  config: AnalysisConfig,
): number {
  const solved = inductionTwin(config) ?? config;
  return addedAirEstimate(mesh, solved as unknown as Record<string, unknown>)?.tetrahedra ?? 0;
}

/** The eddy-current solve a thermal run heated by induction makes first, or null. */
function inductionTwin(config: AnalysisConfig): AnalysisConfig | null {
  const heated = ['thermal', 'thermal-time', 'thermal-structural'].includes(config.analysisType);
  if (!heated || !(config as { inductionHeating?: boolean }).inductionHeating) return null;
  return { ...config, analysisType: 'eddy-current', transient: false, adaptiveRefinement: undefined };
}

/** The same estimate for a known number of unknowns (the benches compare it with their measured runs). */
export function estimateForUnknowns(
  unknowns: number,
  config: AnalysisConfig,
  memoryLimitBytes?: number,
): ResourceEstimate {
  const path = spaceOf(config);
  const { space, complex } = path;
  const direct = usesDirect(path, config, unknowns, memoryLimitBytes);
  const m = MEMORY_MODEL;
  const solverBytes = direct
    ? directBytes(space, complex, unknowns, path.fullWave, path.cavityEigen)
    : iterativeBytesPerUnknown(path, config) * unknowns;
  return {
    unknowns,
    space,
    complex,
    solver: direct ? 'direct' : 'iterative',
    memoryBytes: Math.round(m.baseBytes + solverBytes),
  };
}

/** "6.2 GB", "130 MB", "9 kB" */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/** "≈ 1.8 M unknowns, ≈ 6.2 GB" */
export function describeEstimate(estimate: ResourceEstimate): string {
  const n = estimate.unknowns;
  const count = (x: number) =>
    x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : x >= 1e4 ? `${Math.round(x / 1e3)} k` : String(x);
  const air =
    estimate.addedAirTetrahedra !== undefined
      ? ` (with ≈ ${count(estimate.addedAirTetrahedra)} tetrahedra of air added around the device)`
      : '';
  if (estimate.startUnknowns !== undefined) {
    return (
      `≈ ${count(estimate.startUnknowns)} unknowns, adaptive refinement may grow it to ${count(n)}: ` +
      `≈ ${formatBytes(estimate.memoryBytes)}${air}`
    );
  }
  return `≈ ${count(n)} unknowns, ≈ ${formatBytes(estimate.memoryBytes)}${air}`;
}

/**
 * What the estimate's memory is made of (qa32: a small model said ≈ 1.0 GB, read as what the model needs):
 * the engine's baseline address space, mostly reserved rather than used, and the model's own share.
 */
export function describeBaseline(estimate: ResourceEstimate): string {
  const m = MEMORY_MODEL;
  const model = Math.max(0, estimate.memoryBytes - m.baseBytes);
  // "≈ 180 MB" kept on one line
  const about = (bytes: number) => `≈\u00a0${formatBytes(bytes).replace(' ', '\u00a0')}`;
  return (
    `Includes ${about(m.baseBytes)} reserved by the solver's libraries ` +
    `(${about(m.baseResidentBytes)} of it in use); this model adds ${about(model)}.`
  );
}
