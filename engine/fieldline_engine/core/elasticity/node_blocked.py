"""The stiffness K on node blocks (H1 with dim=3: one 3 × 3 block per pair of coupled DOFs), with the supports'
prescribed components applied in the assembled matrix.

Elasticity's VectorH1 numbers x, y and z in three blocks, so its K is a scalar sparse matrix, and it fixes single
components by its Dirichlet flags. The same K on node blocks has a sparsity graph a ninth the size: assembly,
products and factorisations are cheaper, and NGSolve's block smoothers see each node's 3 × 3 coupling. LE10 at
43 k DOFs, one thread: assembly 0.25 vs 0.34–0.46 CPU s, a product 2.7 vs 3.6 ms (bench/structural/README.md).

A node-blocked space can only mark whole nodes as fixed, so a prescribed component (a symmetry plane fixes one
of three) is applied in the matrix instead: its row and column lose their off-diagonal entries and keep the
diagonal, and its right-hand side is zero (the solve computes the correction to the prescribed values). That is
the same discrete system as VectorH1's, solved for the same unknowns; the entries taken out are kept, so that
K u (reactions, strain energy) is still the whole stiffness's.

NGSolve's sparse Cholesky of 3 × 3 blocks is about three times cheaper than the scalar one (LE10's vertex problem:
0.04 vs 0.14 CPU s to factor, 2.1 vs 4.6 ms a solve), but breaks down on thin parts: a plate 1 mm thick under
25 mm elements came out with displacements of 1e77, where the scalar factor of the same entries gives the right
194 m. So `vertex_inverse` checks the block factor's residual on a test vector and falls back to the scalar factor
(`scalar_inverse`), which is also what a whole-system factorisation uses.

Layouts: a blocked vector is node-major (DOF i, component k at 3i + k); VectorH1's is component-major (k·n + i),
with the same scalar numbering of the H1 DOFs (the two spaces share the mesh and the order).
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.core.elasticity.operator import Elasticity
from fieldline_engine.limits import parallel


class NodeBlockedStiffness:
    def __init__(self, elasticity: Elasticity):
        self.fes = ng.H1(elasticity.mesh, order=elasticity.order, dim=3)
        self.nodes = self.fes.ndof
        u, v = self.fes.TnT()
        self.form = ng.BilinearForm(self.fes, symmetric=True, symmetric_storage=True)
        self.form += ng.InnerProduct(elasticity.stress(u), elasticity.strain(v)) * ng.dx
        self.fixed = np.zeros((self.nodes, 3), dtype=bool)
        # The entries the constraints took out of K's stored blocks: where (a mask over the blocks) and their values.
        self._drop = np.zeros((0, 3, 3), dtype=bool)
        self._dropped = np.zeros(0)

    @property
    def mat(self) -> ng.BaseMatrix:
        return self.form.mat

    @property
    def unknowns(self) -> int:
        return 3 * self.nodes

    def assemble(self, free_component_major: ng.BitArray) -> None:
        """K, then the prescribed components of VectorH1's free-DOF mask applied in it."""
        with parallel(self.unknowns):
            self.form.Assemble()
        free = bits.mask(free_component_major)
        self.fixed = ~free.reshape(3, self.nodes).T
        values, cols, ptr = self.mat.CSR()
        values = values.NumPy().reshape(-1, 3, 3)  # a view of the matrix's own entries
        ptr = np.asarray(ptr).astype(np.int64)
        rows = np.repeat(np.arange(self.nodes), np.diff(ptr))
        cols = np.asarray(cols).astype(np.int64)
        # Entry (k, l) of block (i, j) goes when component k of node i or l of node j is fixed, except that a fixed
        # component keeps its own diagonal entry: its row is then that entry times the correction, 0. As masks
        # over every block (a thin part touches nearly all of them), not gathers of the touched ones: 4 → 1 ms.
        fixed_rows = np.ascontiguousarray(self.fixed[rows])
        drop = fixed_rows[:, :, None] | self.fixed[cols][:, None, :]
        diagonal = np.flatnonzero(rows == cols)
        k = np.arange(3)
        drop[diagonal[:, None], k, k] = False
        self._drop = drop
        self._dropped = values[drop]
        values[drop] = 0.0

    def to_blocked(self, component_major: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(component_major.reshape(3, self.nodes).T).ravel()

    def to_component_major(self, node_major: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(node_major.reshape(self.nodes, 3).T).ravel()

    def vector(self, node_major: np.ndarray | None = None) -> ng.BaseVector:
        out = self.mat.CreateColVector()
        out.FV().NumPy()[:] = 0.0 if node_major is None else node_major
        return out

    def product(self, node_major: np.ndarray) -> np.ndarray:
        """The whole stiffness (constraints not applied) times a node-major vector: the entries the constraints
        took out are put back in place for NGSolve's product, then taken out again. No gathered copies of the
        blocks: in a forked job process every fresh megabyte is ≈ 250 page faults (gathering the removed blocks
        and their products took 2.5–3.5 ms and 310 faults a product on a 4 k-unknown model)."""
        x = self.vector(node_major)
        y = x.CreateVector()
        values = self.mat.CSR()[0].NumPy().reshape(-1, 3, 3)  # a view of the matrix's own entries
        values[self._drop] = self._dropped
        try:
            y.data = self.mat * x
        finally:
            values[self._drop] = 0.0
        return y.FV().NumPy().copy()

    def vertex_inverse(self, nv: int) -> tuple[ng.BaseMatrix, str]:
        """The factor of K's vertex block (the first nv nodes: the hierarchical basis starts with the vertex
        functions) and which kind it is: 3 × 3 blocks when their factor solves a test system to 1e-8, else
        scalar."""
        vertices = ng.BitArray(self.nodes)
        vertices.Clear()
        vertices[0:nv] = True
        with parallel(3 * nv):
            inverse = self.mat.Inverse(vertices, inverse="sparsecholesky")
        b = np.zeros(self.unknowns)
        b[: 3 * nv] = np.random.default_rng(0).standard_normal(3 * nv)
        x = self.vector()
        x.data = inverse * self.vector(b)
        r = self.vector()
        r.data = self.mat * x
        residual = r.FV().NumPy()[: 3 * nv] - b[: 3 * nv]
        if np.all(np.isfinite(residual)) and np.linalg.norm(residual) <= 1e-8 * np.linalg.norm(b):
            return inverse, "sparse Cholesky"
        return self.scalar_inverse(nv), "sparse Cholesky (scalar: the 3 × 3 block factor was inaccurate)"

    def scalar_inverse(self, nodes: int | None = None) -> ng.BaseMatrix:
        """The sparse Cholesky factor of K's leading `nodes` × `nodes` blocks (all: the whole K) as a scalar
        matrix in node-major order, applied to the leading entries of a blocked vector (zero elsewhere)."""
        nodes = self.nodes if nodes is None else nodes
        values, cols, ptr = self.mat.CSR()
        ptr = np.asarray(ptr).astype(np.int64)[: nodes + 1]
        values = values.NumPy().reshape(-1, 3, 3)[: ptr[-1]]
        rows = np.repeat(np.arange(nodes), np.diff(ptr))
        cols = np.asarray(cols).astype(np.int64)[: ptr[-1]]
        inside = cols < nodes
        k = np.arange(3)
        r = 3 * rows[inside, None, None] + k[None, :, None] + 0 * k[None, None, :]
        c = 3 * cols[inside, None, None] + k[None, None, :] + 0 * k[None, :, None]
        lower = r >= c  # the factorisation reads the lower triangle
        size = 3 * nodes
        scalar = ng.la.SparseMatrixd.CreateFromCOO(r[lower], c[lower], values[inside][lower], size, size)
        every = ng.BitArray(size)
        every.Set()
        with parallel(size):
            inverse = scalar.Inverse(every, inverse="sparsecholesky")
        return LeadingInverse(inverse, size, self.mat)

    def smoothing_blocks(self) -> Any:  # pyngcore Table of DOF numbers
        """Each vertex with the DOFs of its edges (and, from order 3, each face's DOFs): with the vertex coarse
        space, block Jacobi on these overlapping patches needs 27 CG iterations on LE10 at 43 k DOFs where point
        Jacobi needed 72, and 84 instead of 561 on a plate one element thick."""
        kinds = ["vertexedge", "face"] if self.fes.globalorder >= 3 else "vertexedge"
        return self.fes.CreateSmoothingBlocks(blocktype=kinds)


class LeadingInverse(ng.BaseMatrix):
    """y = S⁻¹ x on the first `size` entries of a node-major vector, zero on the others; shaped like `like`."""

    def __init__(self, inverse: ng.BaseMatrix, size: int, like: ng.BaseMatrix):
        super().__init__()
        self.inverse, self.size, self.like = inverse, size, like
        self._x = ng.la.BaseVector(size)
        self._y = ng.la.BaseVector(size)

    def IsComplex(self) -> bool:  # noqa: N802 — NGSolve's BaseMatrix interface
        return False

    def Height(self) -> int:  # noqa: N802
        return self.like.height

    def Width(self) -> int:  # noqa: N802
        return self.like.width

    def CreateColVector(self) -> ng.BaseVector:  # noqa: N802
        return self.like.CreateColVector()

    def CreateRowVector(self) -> ng.BaseVector:  # noqa: N802
        return self.like.CreateRowVector()

    def Mult(self, x: ng.BaseVector, y: ng.BaseVector) -> None:  # noqa: N802
        self._x.FV().NumPy()[:] = x.FV().NumPy()[: self.size]
        self._y.data = self.inverse * self._x
        out = y.FV().NumPy()
        out[:] = 0.0
        out[: self.size] = self._y.FV().NumPy()
