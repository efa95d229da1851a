"""Two-level preconditioner for elasticity of order ≥ 2: Jacobi on every DOF plus a coarse correction on the
vertex (P1) subspace, solved by smoothed-aggregation AMG that keeps the six rigid-body motions.

NGSolve's hierarchical H1 basis starts each displacement component's block with the vertex functions, and those
are the P1 hat functions: K's vertex-vertex block is the first-order stiffness on the same mesh, assembled here
on a first-order space (full storage, as pyamg reads it). The higher-order DOFs (edge, face, cell) are local,
so Jacobi handles them, and the P1 problem carries the global coupling.

Why not BDDC: BDDC keeps element-wise harmonic extensions and inner solves and factors its vertex problem,
whose fill grows faster than the unknowns. This keeps K, its diagonal and an AMG hierarchy of a problem ~1/8
the size (order 2). LE10 at 1 M DOFs, one thread: 57 CG iterations and 1.36 GB peak against BDDC's 79 and
2.41 GB (bench/structural/README.md).

The modal path's LOBPCG uses the same vertex coarse space multiplicatively (`GaussSeidelTwoLevel`): symmetric
Gauss–Seidel sweeps around an exact sparse-Cholesky solve on the vertex DOFs of the assembled matrix, which
also works on the node-blocked (H1, dim=3) matrices of vibration/node_blocks.py. Both forms select the vertex
DOFs by `_vertex_ranges`, the one statement of the layout here.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core import amg
from fieldline_engine.core.elasticity.operator import Elasticity
from fieldline_engine.core.elasticity.rigid_modes import rigid_modes_at_vertex_dofs
from fieldline_engine.core.two_level_gauss_seidel import TwoLevelGaussSeidel


def _vertex_ranges(ndof: int, nv: int, components: int) -> list[tuple[int, int]]:
    """Where the vertex DOFs sit: the first nv of each of `components` equal blocks (VectorH1 numbers x, y and
    z in three blocks of ndof/3), or the first nv of a node-blocked space (components = 1, ndof its nodes)."""
    block = ndof // components
    if components * block != ndof or block < nv:
        raise ValueError(f"not a layout of {components} blocks: {ndof} DOFs for {nv} vertices")
    return [(k * block, k * block + nv) for k in range(components)]


def vertex_dofs(fes: ng.FESpace, nv: int, components: int, free: ng.BitArray | None = None) -> ng.BitArray:
    """The vertex DOFs of fes that are free (in `free`, else in fes.FreeDofs()); `_vertex_ranges` for
    `components`."""
    coarse = ng.BitArray(fes.ndof)
    coarse.Clear()
    for start, stop in _vertex_ranges(fes.ndof, nv, components):
        for i in range(start, stop):
            coarse[i] = True
    coarse &= free if free is not None else fes.FreeDofs()
    return coarse


def vertex_embedding(ndof: int, nv: int) -> ng.BaseMatrix:
    """ndof × 3nv: a first-order VectorH1 vector (blocks x, y, z of nv vertex values) placed at the vertex
    DOFs of a higher-order VectorH1 with ndof DOFs (blocks x, y, z of ndof/3, each starting at its vertices)."""
    out = None
    for k, (start, stop) in enumerate(_vertex_ranges(ndof, nv, 3)):
        fine = ng.la.Embedding(ndof, ng.IntRange(start, stop))
        coarse = ng.la.Embedding(3 * nv, ng.IntRange(k * nv, (k + 1) * nv))
        term = fine @ coarse.T
        out = term if out is None else out + term
    return out


def vertex_coarse_correction(elasticity: Elasticity) -> ng.BaseMatrix:
    """E · AMG(K_P1) · Eᵀ on the higher-order space: the coarse part of the two-level preconditioner."""
    mesh = elasticity.mesh
    p1 = elasticity.space(order=1)
    if p1.ndof != 3 * mesh.nv:  # every vertex carries a first-order DOF (no unused vertices in an upload)
        raise ValueError(f"first-order space has {p1.ndof} DOFs for {mesh.nv} vertices")
    k1 = elasticity.stiffness(space=p1)
    k1.Assemble()
    modes = rigid_modes_at_vertex_dofs(np.asarray(mesh.ngmesh.Coordinates()))
    solver = amg.SmoothedAggregation(k1.mat, p1.FreeDofs(), modes)
    del k1  # pyamg holds its own copy of the free-DOF block
    embed = vertex_embedding(elasticity.fes.ndof, mesh.nv)
    return embed @ solver @ embed.T


def two_level_preconditioner(
    elasticity: Elasticity, mat: ng.BaseMatrix, freedofs: ng.BitArray
) -> ng.BaseMatrix:
    """Jacobi (the diagonal of mat on freedofs) plus the vertex coarse correction, restricted to freedofs."""
    coarse = vertex_coarse_correction(elasticity)
    if freedofs.NumSet() != elasticity.fes.FreeDofs().NumSet():
        project = ng.Projector(freedofs, True)
        coarse = project @ coarse @ project
    return mat.CreateSmoother(freedofs) + coarse


class GaussSeidelTwoLevel(TwoLevelGaussSeidel):
    """The modal path's form: x = B b by `sweeps` forward Gauss–Seidel sweeps from x = 0, the coarse correction
    x += C (b − A x) with C the exact (sparse-Cholesky) inverse on the `coarse` DOFs (`vertex_dofs`), then as
    many backward sweeps — symmetric, so it can precondition LOBPCG or CG. The vertex problem's factor is
    small (a seventh of a quadratic model's unknowns, with linear elements' sparsity) and carries every mode's
    smooth global part, rigid motions included, so LOBPCG's iteration count stays flat under refinement (15 on
    the 42 k-DOF cantilever against BDDC's 50; bench/vibration/README.md)."""

    def __init__(self, a: ng.BaseMatrix, free: ng.BitArray, coarse: ng.BitArray, sweeps: int = 2):
        super().__init__(a, free, a.Inverse(coarse, inverse="sparsecholesky"), sweeps)
