"""Fields sampled at mesh vertices for the viewer and the results file.

A vector field is projected into a first-order VectorH1 space (element-wise projection, averaged at
shared vertices), whose vertex DOFs are then the field at the vertices, in vertex order.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.limits import parallel


def vector_at_vertices(
    mesh: ng.Mesh, field: ng.CoefficientFunction, complex_valued: bool = False, order: int = 1
) -> np.ndarray:
    """`order` ≥ the field's polynomial order makes the element-wise projection exact, so each vertex
    value is the average of the field's values in the elements around it (order 1 smooths curved fields)."""
    space = ng.VectorH1(mesh, order=order, complex=complex_valued)
    gf = ng.GridFunction(space)
    with parallel(space.ndof):
        gf.Set(field)
    nv = mesh.nv
    values = gf.vec.FV().NumPy().copy()
    # VectorH1 stores component blocks (x, then y, then z); each block starts with its vertex DOFs.
    return values.reshape(3, -1)[:, :nv].T


def scalar_at_vertices(gf: ng.GridFunction) -> np.ndarray:
    """H1 vertex DOFs come first and equal the nodal values (higher-order shapes vanish at vertices)."""
    return gf.vec.FV().NumPy()[: gf.space.mesh.nv].copy()


class VertexSampler:
    """Vertex values of many fields on one mesh (time-domain frames): each field is evaluated once at every
    element's vertices in one vectorized call and averaged over the elements around each vertex, the
    same average `vector_at_vertices` forms, without a projection per field (≈40× faster)."""

    # Reference coordinates of a tetrahedron's vertices 0–3 in NGSolve's numbering.
    _TET_VERTICES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 0.0))

    def __init__(self, mesh: ng.Mesh):
        rule = ng.IntegrationRule(list(self._TET_VERTICES), [0.0] * 4)
        self._points = mesh.MapToAllElements(rule, ng.VOL)
        # Netgen's element table (1-based point numbers, in NGSolve's vertex order), not a Python loop.
        nodes = mesh.ngmesh.Elements3D().NumPy()["nodes"][:, :4]
        self._vertex_of_point = nodes.astype(np.int64).ravel() - 1
        self._nv = mesh.nv
        self._counts = np.bincount(self._vertex_of_point, minlength=self._nv).astype(np.float64)
        self._counts[self._counts == 0] = 1.0

    def __call__(self, field: ng.CoefficientFunction) -> np.ndarray:
        # Compiled, the expression tree is evaluated as one program: LE10's stress at 33 k points 0.10 → 0.02 CPU s.
        values = np.asarray(field.Compile()(self._points), dtype=np.float64).reshape(
            len(self._vertex_of_point), -1
        )
        out = np.zeros((self._nv, values.shape[1]))
        for c in range(values.shape[1]):
            out[:, c] = np.bincount(self._vertex_of_point, weights=values[:, c], minlength=self._nv)
        return out / self._counts[:, None]
