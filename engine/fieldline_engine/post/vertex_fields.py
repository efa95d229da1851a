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
