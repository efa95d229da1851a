"""The static solve: K u = f with prescribed displacements, and the reactions at the supports.

The operator and the loads are core/elasticity's. Reactions come from the residual of the unconstrained system,
r = K u − f, weighted by the function that is 1 on a support's constrained component: exact for the discrete
solution, so the reactions balance the applied loads to the solver's accuracy.

The two-level CG with its vertex problem factored and direct solves up to BLOCKED_DIRECT_MAX_DOFS run on K in 3 × 3
node blocks (core/elasticity/node_blocked.py; a direct solve whose block factor fails its residual check falls back
to VectorH1's); larger direct solves, BDDC (registered with a VectorH1 form before assembly), first order's pyamg
and the AMG coarse space of large models keep VectorH1's scalar K. Loads, prescribed values, reactions and the
results stay on VectorH1 either way.
"""

from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.core import amg, bits
from fieldline_engine.core.elasticity.loads import applied_load, component_dirichlet, support_region
from fieldline_engine.core.elasticity.node_blocked import NodeBlockedStiffness
from fieldline_engine.core.elasticity.operator import Elasticity
from fieldline_engine.core.elasticity.rigid_modes import rigid_modes_at_vertex_dofs
from fieldline_engine.core.elasticity.setup import ElasticSetup
from fieldline_engine.core.elasticity.thermal import eigen_stress
from fieldline_engine.core.elasticity.vertex_coarse import two_level_preconditioner
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.linear_solve import (
    TWO_LEVEL_DIRECT_MAX_DOFS,
    LinearSolver,
    SolveReport,
    resolve_choice,
)
from fieldline_engine.core.materials import MaterialTable
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT, ProgressSpan

# Up to this many free vertex unknowns the two-level preconditioner's coarse (P1) problem is K's own vertex block,
# factored by sparse Cholesky: no first-order assembly, no SciPy or pyamg (≈ 0.5 CPU s of imports) and no
# V-cycles driven from Python. Above it pyamg's smoothed aggregation with the rigid-body modes takes over, as the
# factor's fill grows faster than the unknowns. LE10, whole job, CPU s Cholesky vs AMG: 19 k vertex unknowns
# (129 k in all) 6.9 vs 7.5, 31.7 k (216 k) 13.2 vs 13.4 at the same peak memory (bench/structural/README.md).
VERTEX_CHOLESKY_MAX_DOFS = 30_000
# Direct solves up to this many unknowns (every one `auto` makes: TWO_LEVEL_DIRECT_MAX_DOFS) factor K in 3 × 3
# node blocks, and keep the solution when it satisfies the blocked system to BLOCK_FACTOR_RESIDUAL relative to the
# right-hand side; otherwise (a thin part: node_blocked.py) VectorH1's scalar K is factored as before. The check is
# one product with K on the solve's own right-hand side. Not above: there a wasted block factor costs seconds.
BLOCKED_DIRECT_MAX_DOFS = 30_000
BLOCK_FACTOR_RESIDUAL = 1e-8


@dataclass
class StaticSolution:
    elasticity: Elasticity
    displacement: ng.GridFunction
    report: SolveReport
    non_zeros: int
    reactions: dict[str, np.ndarray] = field(default_factory=dict)  # support label → [Rx, Ry, Rz] (N)
    applied: np.ndarray = field(default_factory=lambda: np.zeros(3))  # total applied load (N)
    strain_energy: float = 0.0


def solve_static(
    mesh: ng.Mesh,
    setup: ElasticSetup,
    materials: MaterialTable,
    order: int,
    options: SolverOptions,
    progress: ProgressSpan = SILENT,
) -> StaticSolution:
    elasticity = Elasticity(mesh, materials, order, component_dirichlet(setup))
    if setup.thermal is not None:
        elasticity.eigen_stress = eigen_stress(
            mesh, setup.thermal, elasticity.mu, elasticity.lam, elasticity.alpha
        )
    if _node_blocked(elasticity, options.choice):
        return _with_thermal_energy(_solve_node_blocked(elasticity, setup, options, progress))
    block_fallback = None
    if _blocked_direct(elasticity, options.choice):
        blocked = _solve_node_blocked(elasticity, setup, options, progress, block_factor=True)
        if isinstance(blocked, StaticSolution):
            return _with_thermal_energy(blocked)
        block_fallback = blocked  # why the blocked factor was not used: VectorH1's scalar one below
    fes = elasticity.fes
    u, v = fes.TnT()
    # Half storage at order ≥ 2 (direct, BDDC or two-level; order 1 may go to pyamg, which needs the whole matrix).
    a = elasticity.stiffness(symmetric_storage=order >= 2)
    near_null = rigid_modes_at_vertex_dofs(np.asarray(mesh.ngmesh.Coordinates())) if order == 1 else None
    solver = LinearSolver(
        a,
        fes,
        options.choice,
        options.tolerance,
        options.max_iterations,
        kind="elasticity",
        progress=lambda frac, msg: progress(0.3 + 0.6 * frac, msg),
        near_null=near_null,
        two_level=(lambda free: _amg_two_level(elasticity, a.mat, free)) if order >= 2 else None,
        fallback_direct=True,
    )
    f, total = applied_load(mesh, setup, elasticity, v)
    progress(0.0, f"Assembling the elasticity system ({fes.ndof} DOFs)")
    with parallel(fes.ndof):
        a.Assemble()
        f.Assemble()
    progress(0.25, "Factorizing" if solver.method == "direct" else "Preconditioner ready")
    freedofs = fes.FreeDofs()
    solver.prepare(freedofs)

    gfu = ng.GridFunction(fes)
    _set_prescribed(gfu, setup, mesh)
    rhs = gfu.vec.CreateVector()
    rhs.data = f.vec - a.mat * gfu.vec
    solver.solve(rhs, gfu, "Solving the elasticity system")
    if block_fallback is not None:
        solver.report.fallback = block_fallback

    residual = gfu.vec.CreateVector()
    residual.data = a.mat * gfu.vec - f.vec
    r = residual.FV().NumPy()
    reactions = _reactions(gfu, setup, mesh, r)
    energy = 0.5 * float(ng.InnerProduct(gfu.vec, (a.mat * gfu.vec).Evaluate()))
    return _with_thermal_energy(
        StaticSolution(
            elasticity=elasticity,
            displacement=gfu,
            report=solver.report,
            non_zeros=int(a.mat.nze),
            reactions=reactions,
            applied=total,
            strain_energy=energy,
        )
    )


def _with_thermal_energy(sol: StaticSolution) -> StaticSolution:
    """Under a thermal load ½uᵀKu is not the stored energy: that is ½∫σ : (ε − ε_th), from the stress."""
    e = sol.elasticity
    if e.eigen_stress is not None:
        thermal_strain = e.eigen_stress / (3 * e.lam + 2 * e.mu)
        stress = e.stress(sol.displacement) - e.eigen_stress
        elastic_strain = e.strain(sol.displacement) - thermal_strain
        # Exact at max(2p − 2, 2): on straight tetrahedra ε(u) is of degree p − 1 and the thermal strain of degree
        # ≤ 1 (the temperature is piecewise linear or uniform, the materials constant per body), so stress and
        # elastic strain are each of degree max(p − 1, 1). Compiled, the expression tree runs as one program: with
        # the lower order, 4.0 → 1.4 ms of a 4 k-unknown job (2p + 2 had taken 6× 2p's points).
        integrand = (0.5 * ng.InnerProduct(stress, elastic_strain)).Compile()
        energy = ng.Integrate(integrand, e.mesh, order=max(2 * e.order - 2, 2))
        sol.strain_energy = float(energy)
    return sol


def _node_blocked(elasticity: Elasticity, choice: str) -> bool:
    """Whether the solve runs on node blocks: the two-level CG while its vertex problem is factored (up to
    VERTEX_CHOLESKY_MAX_DOFS free vertex unknowns, or at any size without pyamg). Direct solves factor VectorH1's
    scalar K, as before (node_blocked.py: why not the blocked one)."""
    fes = elasticity.fes
    if elasticity.order < 2 or resolve_choice(choice, fes.ndof, TWO_LEVEL_DIRECT_MAX_DOFS) != "cg-amg":
        return False
    free = bits.mask(fes.FreeDofs()).reshape(3, -1)[:, : elasticity.mesh.nv]
    return int(free.sum()) <= VERTEX_CHOLESKY_MAX_DOFS or not amg.available()


def _blocked_direct(elasticity: Elasticity, choice: str) -> bool:
    """Whether a direct solve factors K in 3 × 3 node blocks (order ≥ 2, up to BLOCKED_DIRECT_MAX_DOFS): NGSolve's
    block Cholesky takes ≈ 2/3 of the scalar one's time (the thick cylinder's K, 3 260 free unknowns: 11–12 vs
    17–18 ms), but breaks down on thin parts, so its solution is checked (`_solve_node_blocked`)."""
    fes = elasticity.fes
    return (
        elasticity.order >= 2
        and fes.ndof <= BLOCKED_DIRECT_MAX_DOFS
        and resolve_choice(choice, fes.ndof, TWO_LEVEL_DIRECT_MAX_DOFS) == "direct"
    )


def _solve_node_blocked(
    elasticity: Elasticity,
    setup: ElasticSetup,
    options: SolverOptions,
    progress: ProgressSpan,
    block_factor: bool = False,
) -> StaticSolution | str:
    """K u = f on node blocks: by the two-level CG (its stall fallback factors the scalar K), or with
    `block_factor` by the 3 × 3 block Cholesky, whose solution must satisfy the blocked system to
    BLOCK_FACTOR_RESIDUAL; else the reason (a str) and the caller factors VectorH1's scalar K instead."""
    mesh, fes = elasticity.mesh, elasticity.fes
    k = NodeBlockedStiffness(elasticity)

    def factor(free: ng.BitArray) -> ng.BaseMatrix:
        if not block_factor:
            return k.scalar_inverse()
        with parallel(k.unknowns):
            return k.mat.Inverse(free, inverse="sparsecholesky")

    solver = LinearSolver(
        k.form,
        k.fes,
        options.choice,
        options.tolerance,
        options.max_iterations,
        kind="elasticity",
        progress=lambda frac, msg: progress(0.3 + 0.6 * frac, msg),
        two_level=lambda _free: _vertex_patch_two_level(k, mesh.nv),
        unknowns=k.unknowns,
        fallback_direct=True,
        factor=factor,
    )
    f, total = applied_load(mesh, setup, elasticity, fes.TestFunction())
    progress(0.0, f"Assembling the elasticity system ({k.unknowns} DOFs)")
    with parallel(k.unknowns):
        f.Assemble()
    k.assemble(fes.FreeDofs())
    progress(0.25, "Factorizing" if solver.method == "direct" else "Preconditioner ready")
    solver.prepare(k.fes.FreeDofs())
    if block_factor:
        solver.report.method = "direct (sparse Cholesky, 3 × 3 node blocks)"

    gfu = ng.GridFunction(fes)
    _set_prescribed(gfu, setup, mesh)
    prescribed = k.to_blocked(gfu.vec.FV().NumPy())
    load = k.to_blocked(f.vec.FV().NumPy())
    # The correction to the prescribed values: zero on every prescribed component.
    rhs = load - k.product(prescribed) if prescribed.any() else load.copy()
    rhs[k.fixed.ravel()] = 0.0
    correction = ng.GridFunction(k.fes)
    solver.solve(k.vector(rhs), correction, "Solving the elasticity system")
    if block_factor:
        residual = correction.vec.CreateVector()
        residual.data = k.mat * correction.vec
        error = np.linalg.norm(residual.FV().NumPy() - rhs)
        scale = np.linalg.norm(rhs)
        if not np.isfinite(error) or error > BLOCK_FACTOR_RESIDUAL * scale:
            relative = error / scale if scale > 0 else error
            return f"the 3 × 3 node-block factor was inaccurate (relative residual {relative:.1e}): scalar factor"
    u = prescribed + correction.vec.FV().NumPy()
    ku = k.product(u)
    gfu.vec.FV().NumPy()[:] = k.to_component_major(u)
    return StaticSolution(
        elasticity=elasticity,
        displacement=gfu,
        report=solver.report,
        non_zeros=9 * int(k.mat.nze),  # stored entries of the 3 × 3 blocks
        reactions=_reactions(gfu, setup, mesh, k.to_component_major(ku - load)),
        applied=total,
        strain_energy=0.5 * float(u @ ku),
    )


def _vertex_patch_two_level(k: NodeBlockedStiffness, nv: int) -> tuple[ng.BaseMatrix, str]:
    """Block Jacobi on vertex patches (NodeBlockedStiffness.smoothing_blocks) plus the vertex (P1) coarse
    correction, K's vertex block factored by sparse Cholesky. The hierarchical basis starts with the vertex
    functions, so the vertex nodes are the first nv."""
    smoother = k.mat.CreateBlockSmoother(k.smoothing_blocks())
    vertex_inverse, factor = k.vertex_inverse(nv)
    return smoother + vertex_inverse, f"block Jacobi on vertex patches + vertex (P1) coarse space by {factor}"


def _amg_two_level(
    elasticity: Elasticity, mat: ng.BaseMatrix, free: ng.BitArray
) -> tuple[ng.BaseMatrix, str]:
    """Jacobi plus the vertex (P1) coarse correction by AMG (core/elasticity/vertex_coarse.py), for vertex
    problems too large to factor."""
    return (
        two_level_preconditioner(elasticity, mat, free),
        "Jacobi + vertex (P1) coarse space by smoothed aggregation AMG (pyamg)",
    )


def _set_prescribed(gfu: ng.GridFunction, setup: ElasticSetup, mesh: ng.Mesh) -> None:
    """Prescribed non-zero displacements on their supports' constrained components."""
    for support in setup.supports:
        for k, value in enumerate(support.values):
            if value:
                vb, region = support_region(mesh, support)
                scratch = ng.GridFunction(gfu.space)
                scratch.components[k].Set(ng.CF(value), vb, definedon=region)
                dofs = _component_dofs(gfu.space, region, k)
                gfu.vec.FV().NumPy()[dofs] = scratch.vec.FV().NumPy()[dofs]


def _component_dofs(fes: ng.FESpace, region: ng.Region, component: int) -> np.ndarray:
    """DOFs of one displacement component on a support's region (VectorH1 stores component blocks)."""
    on_region = bits.indices(fes.GetDofs(region))
    block = fes.ndof // 3
    return on_region[(on_region >= component * block) & (on_region < (component + 1) * block)]


def _reactions(
    gfu: ng.GridFunction, setup: ElasticSetup, mesh: ng.Mesh, r: np.ndarray
) -> dict[str, np.ndarray]:
    """Force each support exerts on the body (N). A DOF on the edge between two supports belongs to the
    first one, so no reaction is counted twice."""
    fes = gfu.space
    claimed = np.zeros(fes.ndof, dtype=bool)
    out: dict[str, np.ndarray] = {}
    for support in setup.supports:
        force = np.zeros(3)
        vb, region = support_region(mesh, support)
        for k, value in enumerate(support.values):
            if value is None:
                continue
            unit = ng.GridFunction(fes)
            unit.components[k].Set(ng.CF(1.0), vb, definedon=region)
            # The region's DOFs of component k with a non-zero weight (the others add nothing), found from the
            # weights: turning fes.GetDofs' BitArray into numpy costs ~10 ms per call at 40 k DOFs.
            all_weights = unit.vec.FV().NumPy()
            dofs = np.flatnonzero(all_weights)
            dofs = dofs[~claimed[dofs]]
            claimed[dofs] = True
            weights = all_weights[dofs]
            # r = K u − f is the force the body needs from outside at constrained DOFs: the reaction.
            force[k] = float(np.sum(r[dofs] * weights))
        out[support.label] = force
    return out
