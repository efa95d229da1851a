"""A generic warm-up for a standby engine process (`standby.py`): loads the libraries a job uses and runs
each kind of operation once on a tiny cube, so a job's first assembly or factorization does not pay for
code being paged in and element tables being built.

It never sees a job's model and keeps nothing: what stays warm is library state (code pages, NGSolve's
reference-element tables per order, NumPy's and SciPy's first calls), not results.
"""

import gc

import numpy as np

_CUBE_VERTICES = [[x, y, z] for z in (0.0, 1.0) for y in (0.0, 1.0) for x in (0.0, 1.0)]
# Six tetrahedra around the cube's diagonal 0–7 (Kuhn's subdivision), all positively oriented.
_CUBE_TETS = [[0, 1, 3, 7], [0, 5, 1, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 6, 4, 7]]


def warm_up() -> None:
    import fieldline_engine.commands.mesh  # noqa: F401 — meshing jobs' libraries (netgen, gmsh)
    import fieldline_engine.commands.solve  # noqa: F401 — registers every family by name
    from fieldline_engine.core.registry import load_all

    load_all()  # and imports them: a cold job imports only its own family, a warmed one none

    matrices = _finite_elements()
    _sparse_linear_algebra(matrices)
    _algebraic_multigrid()
    _dense_linear_algebra()
    np.fft.irfft(np.fft.rfft(np.linspace(0.0, 1.0, 64)))
    _process_title()
    gc.collect()


def _process_title() -> None:
    """The job's handover retitles the process (standby.py): setproctitle's import and its first call's set-up
    (≈ 1.4 ms, a few % of a small job) happen here. Reading the title changes nothing `ps` shows."""
    from setproctitle import getproctitle

    getproctitle()


def _finite_elements() -> list:
    """H1, VectorH1 and HCurl at orders 1–3 (assembly, both direct solvers, a point evaluation) and H1 on
    the boundary."""
    import ngsolve as ng

    from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
    from fieldline_engine.mesh.tet_model import model_from_mesh_data

    mesh = build_ngsolve_mesh(model_from_mesh_data({"vertices": _CUBE_VERTICES, "tetrahedra": _CUBE_TETS}))
    point = mesh(0.3, 0.4, 0.5)
    matrices = []
    for order in (1, 2, 3):
        for space in (
            ng.H1(mesh, order=order, dirichlet="default"),
            ng.VectorH1(mesh, order=order, dirichlet="default"),
            ng.HCurl(mesh, order=order, dirichlet="default"),
        ):
            u, v = space.TnT()
            derivative = ng.curl if isinstance(space, ng.HCurl) else ng.grad
            form = ng.BilinearForm(
                ng.InnerProduct(derivative(u), derivative(v)) * ng.dx + ng.InnerProduct(u, v) * ng.dx
            ).Assemble()
            load = ng.CF((1.0,) * v.dim) if v.dim > 1 else ng.CF(1.0)
            rhs = ng.LinearForm(ng.InnerProduct(load, v) * ng.dx).Assemble()
            field = ng.GridFunction(space)
            for solver in ("sparsecholesky", "umfpack"):
                field.vec.data = form.mat.Inverse(space.FreeDofs(), inverse=solver) * rhs.vec
            field(point)
            matrices.append(form.mat)
        # Surface elements (ports' 2D mode solves, boundary conditions): a space on the boundary alone.
        surface = ng.H1(mesh, order=order, definedon=mesh.Boundaries("default"))
        u, v = surface.TnT()
        ng.BilinearForm(ng.grad(u).Trace() * ng.grad(v).Trace() * ng.ds + u * v * ng.ds).Assemble()
    return matrices


def _algebraic_multigrid() -> None:
    """pyamg (CG with AMG: scalar and elastic systems, and first-order Nédélec through the auxiliary-space
    preconditioner, core/hcurl_aux.py): importing it with the SciPy modules it pulls in was ≈ 0.2 of the
    0.75 CPU s of a forked 16 k-unknown magnetostatic job (bench/magnetics), paid by every job that used it."""
    from fieldline_engine.core import amg

    if not amg.available():
        return
    import ngsolve as ng

    from fieldline_engine.core.hcurl_aux import AuxiliarySpaceHCurl
    from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
    from fieldline_engine.mesh.tet_model import model_from_mesh_data

    mesh = build_ngsolve_mesh(model_from_mesh_data(_cubes(3)))  # interior vertices: free nodal DOFs
    space = ng.HCurl(mesh, order=1, nograds=True, dirichlet="default")  # as magnetostatics uses it
    u, v = space.TnT()
    form = ng.BilinearForm(ng.curl(u) * ng.curl(v) * ng.dx + 1e-3 * u * v * ng.dx, symmetric=True).Assemble()
    pre = AuxiliarySpaceHCurl(form.mat, space, space.FreeDofs())
    x = form.mat.CreateColVector()
    x[:] = 1.0
    y = x.CreateVector()
    pre.Mult(x, y)
    h1 = ng.H1(mesh, order=1, dirichlet="default")
    u, v = h1.TnT()
    laplace = ng.BilinearForm(ng.grad(u) * ng.grad(v) * ng.dx).Assemble()
    cycle = amg.ClassicalAMG(laplace.mat, h1.FreeDofs(), None)
    x = laplace.mat.CreateColVector()
    x[:] = 1.0
    cycle.Mult(x, x.CreateVector())


def _cubes(n: int) -> dict:
    """The unit cube as n³ cells of the six Kuhn tetrahedra each."""
    index = lambda x, y, z: x + (n + 1) * (y + (n + 1) * z)  # noqa: E731
    vertices = [[x / n, y / n, z / n] for z in range(n + 1) for y in range(n + 1) for x in range(n + 1)]
    tets = []
    for z in range(n):
        for y in range(n):
            for x in range(n):
                corners = [index(x + cx, y + cy, z + cz) for cx, cy, cz in (_CORNER_OFFSETS)]
                tets += [[corners[k] for k in tet] for tet in _CUBE_TETS]
    return {"vertices": vertices, "tetrahedra": tets}


_CORNER_OFFSETS = [(int(x), int(y), int(z)) for x, y, z in _CUBE_VERTICES]


def _dense_linear_algebra() -> None:
    """LAPACK's first calls (a port's 2D mode is a small dense solve or eigenproblem; spectra fit by least
    squares): ≈ 2 ms each in a fresh process, microseconds after."""
    import scipy.linalg as sla

    a = np.eye(6) * 4.0 + np.ones((6, 6))
    b = np.ones(6)
    np.linalg.solve(a, b)
    np.linalg.lstsq(a, b, rcond=None)
    np.linalg.eigh(a)
    sla.eigh(a, np.eye(6) * 2.0)
    sla.solve(a, b, assume_a="pos")


def _sparse_linear_algebra(matrices: list) -> None:
    """SciPy's CSR products and factorizations, and CHOLMOD through cholespy when it is installed."""
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla

    rows, cols, values = matrices[-1].COO()
    a = sp.csr_matrix((np.asarray(values), (np.asarray(rows), np.asarray(cols))))
    a = a + sp.identity(a.shape[0], format="csr")  # the Dirichlet rows are empty
    x = np.ones(a.shape[0])
    spla.splu(a.tocsc()).solve(a @ x)
    spla.eigsh(a, k=1, which="LM", v0=x, maxiter=50, tol=1e-3)
    try:
        from cholespy import CholeskySolverD, MatrixType
    except ImportError:
        return
    coo = a.tocoo()
    solver = CholeskySolverD(a.shape[0], coo.row, coo.col, coo.data, MatrixType.COO)
    out = np.zeros_like(x)
    solver.solve(x, out)
