"""First-order H1 stiffness ∫ κ ∇u·∇v by vectorised NumPy, for the large real scalar problems that go to pyamg.

NGSolve's generic element loop costs ~2 µs per tetrahedron on one thread (bench/em-static), half of it the
element matrices and half adding them into its sparse matrix. For P1 on straight tetrahedra with a constant
κ per element the element matrix is closed-form: with cᵢ the area vectors of the faces opposite vertex i
(∇λᵢ = cᵢ / 6|T| up to sign), K_ij = κ (cᵢ·cⱼ) / (36 |T|). Ten dot products per element on arrays, then one
scipy COO→CSR of the six edge couplings (the upper triangle), its transpose and a bincount for the diagonal.
"""

from typing import TYPE_CHECKING

import ngsolve as ng
import numpy as np

if TYPE_CHECKING:  # SciPy is imported where a matrix is built: a small job's solve never loads it
    import scipy.sparse as sp

from fieldline_engine.mesh.ngsolve_mesh import body_of_domain

_EDGES = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
# Elements per block of the element-matrix pass: its ~40 temporaries of this length stay in cache, and the
# pass needs no memory beyond its (10 × elements) results whatever the mesh size.
_BLOCK = 16384


def p1_stiffness(coords: np.ndarray, tets: np.ndarray, kappa: np.ndarray) -> "sp.csr_matrix":
    """The n × n stiffness matrix (CSR, sorted indices, duplicates summed, exact zeros dropped) of
    ∫ κ ∇u·∇v over the tetrahedra `tets` (m × 4 vertex indices into `coords`, n × 3), κ constant per
    element (`kappa`, m)."""
    import scipy.sparse as sp

    n, m = len(coords), len(tets)
    index = np.int32 if n < 2**31 else np.int64
    # Corners in increasing vertex order (K is the same under a consistent relabelling): every edge (i, j),
    # i < j, is then (row, column) of the upper triangle as it stands.
    corners = _sorted_columns(np.array(tets.T, dtype=index))  # 4 × m
    xyz = np.ascontiguousarray(coords.T, dtype=float)  # 3 × n
    diagonal = np.empty((4, m))
    upper = np.empty((6, m))
    for lo in range(0, m, _BLOCK):
        hi = min(lo + _BLOCK, m)
        _element_matrices(xyz, corners[:, lo:hi], kappa[lo:hi], diagonal[:, lo:hi], upper[:, lo:hi])
    triangle = sp.csr_matrix(
        (upper.ravel(), (corners[[i for i, _ in _EDGES]].ravel(), corners[[j for _, j in _EDGES]].ravel())),
        shape=(n, n),
    )
    del upper
    triangle.sum_duplicates()
    diag = sp.diags_array(np.bincount(corners.ravel(), weights=diagonal.ravel(), minlength=n), format="csr")
    return (triangle + triangle.T.tocsr() + diag).tocsr()


def _element_matrices(
    xyz: np.ndarray, corners: np.ndarray, kappa: np.ndarray, diagonal: np.ndarray, upper: np.ndarray
) -> None:
    """Writes K_ii (4 rows) and K_ij for the six edges (_EDGES order) of a block of elements."""
    p = [[xyz[k][corners[i]] for k in range(3)] for i in range(4)]  # p[i][k]: coordinate k of corner i
    e1, e2, e3 = ([p[i][k] - p[0][k] for k in range(3)] for i in (1, 2, 3))
    c1, c2, c3 = _cross(e2, e3), _cross(e3, e1), _cross(e1, e2)
    c0 = [-(c1[k] + c2[k] + c3[k]) for k in range(3)]
    c = (c0, c1, c2, c3)
    scale = kappa / (6.0 * np.abs(_dot(e1, c1)))  # κ |T| / (6|T|)² = κ / (36 |T|), 6|T| = |e1 · (e2 × e3)|
    for i in range(4):
        np.multiply(scale, _dot(c[i], c[i]), out=diagonal[i])
    for k, (i, j) in enumerate(_EDGES):
        np.multiply(scale, _dot(c[i], c[j]), out=upper[k])


def _sorted_columns(rows: np.ndarray) -> np.ndarray:
    """`rows` (4 × m) with every column sorted, in place by a five-step sorting network (np.sort along the
    short axis costs ~5× more)."""
    for i, j in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
        low = np.minimum(rows[i], rows[j])
        np.maximum(rows[i], rows[j], out=rows[j])
        rows[i] = low
    return rows


def _cross(u: list[np.ndarray], v: list[np.ndarray]) -> list[np.ndarray]:
    return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]


def _dot(u: list[np.ndarray], v: list[np.ndarray]) -> np.ndarray:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


class CsrOperator(ng.BaseMatrix):
    """A scipy CSR matrix as an NGSolve operator (CG, residuals) that also answers `CSR()` and `nze` the way
    NGSolve's SparseMatrix does, so the AMG set-up (core/amg.py) reads its arrays without a copy."""

    def __init__(self, csr: "sp.csr_matrix"):
        super().__init__()
        self.csr = csr

    @property
    def nze(self) -> int:
        return int(self.csr.nnz)

    def CSR(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # noqa: N802 - NGSolve's name
        return self.csr.data, self.csr.indices, self.csr.indptr

    def Mult(self, x: ng.BaseVector, y: ng.BaseVector) -> None:  # noqa: N802 - NGSolve's interface
        y.FV().NumPy()[:] = self.csr @ x.FV().NumPy()

    def Height(self) -> int:  # noqa: N802
        return self.csr.shape[0]

    def Width(self) -> int:  # noqa: N802
        return self.csr.shape[1]


def mesh_p1_stiffness(mesh: ng.Mesh, kappa_by_body: list[float]) -> "sp.csr_matrix | None":
    """∫ κ ∇u·∇v for order-1 H1 on `mesh` (vertex i is DOF i) with κ = kappa_by_body[k] on body k (material
    `bodyk`), or None where this closed form does not hold and NGSolve must assemble: not a straight
    tetrahedral 3D mesh."""
    if mesh.dim != 3 or mesh.GetCurveOrder() > 1:
        return None
    elements = mesh.ngmesh.Elements3D().NumPy()
    coords = mesh.ngmesh.Coordinates()
    if len(elements) != mesh.ne or len(coords) != mesh.nv or np.any(elements["type"] != _NETGEN_TET):
        return None
    by_domain = np.array(
        [kappa_by_body[body_of_domain(mesh, d + 1) or 0] for d in range(len(mesh.GetMaterials()))]
    )
    return p1_stiffness(coords, elements["nodes"] - 1, by_domain[elements["index"] - 1])


_NETGEN_TET = 20  # netgen's element type code of a linear tetrahedron
