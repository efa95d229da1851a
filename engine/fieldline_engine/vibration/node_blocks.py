"""K and M with 3 × 3 blocks per node (H1 with dim=3) for the direct modal path.

Elasticity's VectorH1 numbers the x, y and z DOFs in three blocks, so its matrices are scalar sparse matrices.
The same operators on `H1(order, dim=3)` are sparse matrices of 3 × 3 blocks: assembly builds one sparsity
graph of a third the size, and NGSolve's sparse Cholesky orders the node graph and factors dense blocks. On
the 209 736-DOF cantilever of bench/vibration (one thread): assembly of K and M 2.6 vs 6.5 CPU s, factor 18 vs
23–27 CPU s, one solve 0.40 vs 0.60–0.68 CPU s, peak memory 1483 vs 1723 MiB — the same matrices, so the same
frequencies. A node-blocked space can only fix all three components of a DOF: supports that fix some
components only keep the VectorH1 matrices.

Layouts: a blocked vector is node-major (DOF i, component k at 3i + k); VectorH1's is component-major (k·n + i),
with the same scalar numbering of the H1 DOFs (the two spaces share the mesh and the order).
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.core.elasticity.operator import ComponentDirichlet, Elasticity


def all_components(fixed: ComponentDirichlet) -> bool:
    """True when every support fixes x, y and z alike (then a node-blocked space can hold the constraints)."""
    return all(
        set(axes[0]) == set(axes[1]) == set(axes[2])
        for axes in ((fixed.x, fixed.y, fixed.z), fixed.edges, fixed.points)
    )


def blocked_space(mesh: ng.Mesh, order: int, fixed: ComponentDirichlet) -> ng.FESpace:
    flags = {}
    for suffix, axes in (("", (fixed.x,)), ("_bbnd", fixed.edges), ("_bbbnd", fixed.points)):
        if axes[0]:
            flags[f"dirichlet{suffix}"] = "|".join(sorted(set(axes[0])))
    return ng.H1(mesh, order=order, dim=3, **flags)


def blocked_forms(
    elasticity: Elasticity, fes: ng.FESpace, mass_shift: float = 0.0
) -> tuple[ng.BilinearForm, ng.BilinearForm]:
    """Elasticity's K (or K + mass_shift · M) and M (the same integrands) on the node-blocked space."""
    u, v = fes.TnT()
    a = ng.BilinearForm(fes, symmetric=True)
    a += elasticity.stiffness_integrand(u, v) * ng.dx
    if mass_shift:
        a += mass_shift * elasticity.rho * u * v * ng.dx
    m = ng.BilinearForm(fes, symmetric=True)
    m += elasticity.rho * u * v * ng.dx
    return a, m


def free_components(fes: ng.FESpace) -> np.ndarray:
    """The free entries of a node-major vector (3 per free DOF)."""
    nodes = bits.indices(fes.FreeDofs())
    return (3 * nodes[:, None] + np.arange(3)).ravel()


def to_component_major(block: np.ndarray) -> np.ndarray:
    """(3n, k) node-major columns → (3n, k) in VectorH1's component-major order."""
    k = block.shape[1]
    return block.reshape(-1, 3, k).transpose(1, 0, 2).reshape(-1, k)


def translations(nv: int, ndof: int) -> np.ndarray:
    """(3 ndof, 3): the rigid translations in node-major order (1 on a component's vertex DOFs)."""
    r = np.zeros((ndof, 3, 3))
    for k in range(3):
        r[:nv, k, k] = 1.0
    return r.reshape(-1, 3)
