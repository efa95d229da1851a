"""The vertex coarse space both two-level preconditioners stand on (core/elasticity/vertex_coarse.py: the
structural CG's additive AMG form and the modal LOBPCG's Gauss–Seidel form): the DOFs it selects are the first
order's, in both layouts, and the order-2 stiffness restricted to them is the linear-element stiffness."""

import ngsolve as ng
import numpy as np
import scipy.sparse as sp

from fieldline_engine.core.elasticity.operator import ComponentDirichlet, Elasticity
from fieldline_engine.core.elasticity.vertex_coarse import GaussSeidelTwoLevel, vertex_dofs, vertex_embedding
from fieldline_engine.core.materials import MaterialTable
from fieldline_engine.vibration import node_blocks


def _elasticity(mesh: ng.Mesh, order: int) -> Elasticity:
    steel = MaterialTable(
        ["body0"],
        [{"youngsModulus": 210e9, "poissonRatio": 0.3, "density": 7850.0, "thermalExpansion": 12e-6}],
    )
    return Elasticity(mesh, steel, order, ComponentDirichlet(["left"], ["left"], ["left"]))


def _dense(mat: ng.BaseMatrix, rows: np.ndarray) -> np.ndarray:
    r, c, v = mat.COO()
    full = sp.csr_matrix((np.asarray(v), (np.asarray(r), np.asarray(c))), shape=(mat.height, mat.width))
    return full[rows][:, rows].toarray()


def _relative(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def test_vertex_dofs_are_where_the_embedding_writes():
    mesh = ng.Mesh(ng.unit_cube.GenerateMesh(maxh=0.5))
    p2 = _elasticity(mesh, 2).fes
    ones = ng.BaseVector(3 * mesh.nv)
    ones[:] = 1.0
    placed = ng.BaseVector(p2.ndof)
    placed.data = vertex_embedding(p2.ndof, mesh.nv) * ones
    hit = placed.FV().NumPy() != 0
    free = np.array(p2.FreeDofs(), dtype=bool)
    assert hit.sum() == 3 * mesh.nv
    assert np.array_equal(np.array(vertex_dofs(p2, mesh.nv, 3), dtype=bool), hit & free)
    only_first = ng.BitArray(p2.ndof)
    only_first.Clear()
    only_first[0] = True  # a solver's own free set (the structural CG's) replaces the space's
    assert list(np.nonzero(np.array(vertex_dofs(p2, mesh.nv, 3, only_first), dtype=bool))[0]) == [0]
    blocked = node_blocks.blocked_space(mesh, 2, _elasticity(mesh, 2).fixed)
    selected = np.array(vertex_dofs(blocked, mesh.nv, 1), dtype=bool)
    assert np.array_equal(
        np.nonzero(selected)[0], np.nonzero(np.array(blocked.FreeDofs(), dtype=bool)[: mesh.nv])[0]
    )


def test_the_vertex_block_of_the_quadratic_stiffness_is_the_linear_stiffness():
    mesh = ng.Mesh(ng.unit_cube.GenerateMesh(maxh=0.5))
    elasticity = _elasticity(mesh, 2)
    k2 = elasticity.stiffness()
    k1 = elasticity.stiffness(space=elasticity.space(order=1))
    k2.Assemble()
    k1.Assemble()
    block = elasticity.fes.ndof // 3
    rows = np.concatenate([np.arange(k * block, k * block + mesh.nv) for k in range(3)])
    error = _relative(_dense(k2.mat, rows), _dense(k1.mat, np.arange(3 * mesh.nv)))
    print(f"vertex block of K (order 2, {block} DOFs a component) against K (order 1): {error:.1e}")
    assert error < 1e-12


def test_the_gauss_seidel_two_level_form_is_symmetric_and_positive():
    mesh = ng.Mesh(ng.unit_cube.GenerateMesh(maxh=0.5))
    elasticity = _elasticity(mesh, 2)
    a = elasticity.stiffness()
    a.Assemble()
    free = elasticity.fes.FreeDofs()
    pre = GaussSeidelTwoLevel(a.mat, free, vertex_dofs(elasticity.fes, mesh.nv, 3))
    idx = np.nonzero(np.array(free, dtype=bool))[0]
    x, y = a.mat.CreateColVector(), a.mat.CreateColVector()
    cols = []
    for i in idx:
        x[:] = 0.0
        x[int(i)] = 1.0
        y.data = pre * x
        cols.append(y.FV().NumPy()[idx].copy())
    b = np.array(cols).T
    asymmetry = _relative(b, b.T)
    eig = np.linalg.eigvalsh((b + b.T) / 2)
    print(
        f"two-level B on {len(idx)} free DOFs: asymmetry {asymmetry:.1e}, eigenvalues {eig[0]:.2e} … {eig[-1]:.2e}"
    )
    assert asymmetry < 1e-10
    assert eig[0] > 0
