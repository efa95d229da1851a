"""Two-level preconditioner for real H1 scalar problems of order ≥ 2 (electrostatics, conduction, heat):
a symmetric Gauss–Seidel sweep on every free DOF around a coarse correction on the vertex (P1) DOFs, solved
by one V-cycle of smoothed-aggregation AMG.

NGSolve's hierarchical H1 basis numbers the vertex DOFs first and they are the P1 hat functions, so the
vertex-vertex block of the assembled matrix is the first-order stiffness matrix on the same mesh: the coarse
problem is read from the matrix already assembled, not assembled again. The edge, face and cell DOFs are
local, which Gauss–Seidel handles; the vertex problem carries the global coupling, so the iteration count
does not grow with the mesh.

Why not BDDC with an h1amg coarse level (the engine's choice until now): its set-up (element-wise harmonic
extensions, inner factorisations, NGSolve's AMG on the wirebasket) cost more than the whole solve here.
bench/em-static, P2, 2.3e5 DOFs, one thread: BDDC 1.5 s set-up + 0.5 s CG (19 iterations), this 0.1 s set-up
+ 0.5 s CG (14 iterations); scikit-fem's pyamg on the whole P2 matrix 1.2 + 1.1 s.
"""

import ngsolve as ng

from fieldline_engine.core.amg import SmoothedAggregation
from fieldline_engine.core.two_level_gauss_seidel import TwoLevelGaussSeidel


class VertexTwoLevel(TwoLevelGaussSeidel):
    """x = B b: a forward Gauss–Seidel sweep from x = 0, x += C (b − A x) with C the AMG V-cycle on the free
    vertex DOFs, then a backward sweep — symmetric and positive definite, so it preconditions CG."""

    def __init__(self, a: ng.BaseMatrix, free: ng.BitArray, vertices: int):
        coarse = ng.BitArray(free)
        coarse[vertices:] = False
        # With every vertex fixed (a mesh one element thick between two electrodes) Gauss–Seidel is the whole of it.
        solver = SmoothedAggregation(a, coarse, rows=vertices) if coarse.NumSet() else None
        super().__init__(a, free, solver, sweeps=1)
