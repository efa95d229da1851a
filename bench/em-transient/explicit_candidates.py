"""Issue 21: what each way of stepping explicitly without a global solve would cost on the sphere case.

Measures, on the bench's 3D mesh (sphere_fieldline.sphere_mesh, curved to the order):
- the conforming explicit step today: one curl-curl product (scipy CSR) and one substitution with the
  sparse Cholesky factor of the Nédélec mass M (NGSolve sparsecholesky), and the computed stable step;
- (a) a fixed-degree Chebyshev (or Jacobi-PCG) inverse of M, matrix-free: its cost is set by the
  condition number of diag(M)⁻¹M, measured here (Lanczos); the degree for a relative error ε follows
  from 2·((√κ−1)/(√κ+1))^k ≤ ε, and each degree costs one product with M;
- (b) DG Maxwell (VectorL2 E and H, central flux, leap-frog; the element-block inverse mass
  `VectorL2.Mass(ε).Inverse()`): unknowns, one curl operator + inverse mass application (assembled
  DG matrix), and its stable step (power iteration);
- (c) local time stepping: every element's own stable step from its element matrices
  (2/√λ_max(K_e, M_e)), how many elements sit near the smallest, and the work an ideal LTS would save
  (each element stepped at its own step, no interface cost): against the smallest element step, and
  against the global stable step (which is larger: the element bounds are pessimistic).
Run: `.venv/bin/python bench/em-transient/explicit_candidates.py [h_mm]` (≈ 1 min). Single-threaded.
"""

import json
import math
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "engine"))
sys.path.insert(0, str(HERE))

import ngsolve as ng
import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
import scipy.sparse.linalg as sla
import sphere_fieldline
from sphere_case import EPS_R

C0 = 299_792_458.0
# relative error of an approximate inverse mass (≈ 0.05 % in frequency)
EPS_TARGET = 1e-3


def csr(mat) -> sp.csr_matrix:
    r, c, v = mat.COO()
    out = sp.csr_matrix(
        (np.asarray(v), (np.asarray(r), np.asarray(c))), shape=(mat.height, mat.width)
    )
    out.sum_duplicates()
    return out


def per_call_ms(f, repeats: int = 30) -> float:
    f()
    t = time.process_time()
    for _ in range(repeats):
        f()
    return 1e3 * (time.process_time() - t) / repeats


def conforming(mesh, eps, order: int) -> dict:
    fes = ng.HCurl(mesh, order=order, dirichlet="default")
    u, w = fes.TnT()
    m = ng.BilinearForm(eps / C0**2 * u * w * ng.dx).Assemble()
    k = ng.BilinearForm(ng.curl(u) * ng.curl(w) * ng.dx).Assemble()
    free = np.nonzero(np.fromiter(fes.FreeDofs(), dtype=bool, count=fes.ndof))[0]
    M, K = csr(m.mat)[free][:, free], csr(k.mat)[free][:, free]
    x = np.random.default_rng(1).standard_normal(len(free))
    inv = m.mat.Inverse(fes.FreeDofs(), inverse="sparsecholesky")
    vx, vy = m.mat.CreateColVector(), m.mat.CreateColVector()
    vx.FV().NumPy()[:] = np.random.default_rng(2).standard_normal(fes.ndof)

    def substitute():
        vy.data = inv * vx

    d = 1 / np.sqrt(M.diagonal())
    scaled = (sp.diags(d) @ M @ sp.diags(d)).tocsc()
    lmax = sla.eigsh(scaled, k=1, which="LA", return_eigenvectors=False)[0]
    lmin = sla.eigsh(scaled, k=1, sigma=0, which="LM", return_eigenvectors=False)[0]
    kappa = lmax / lmin
    rate = (math.sqrt(kappa) - 1) / (math.sqrt(kappa) + 1)
    degree = math.ceil(math.log(EPS_TARGET / 2) / math.log(rate))
    lam = sla.eigsh(K.tocsc(), k=1, M=M.tocsc(), which="LA", return_eigenvectors=False)
    lam = lam[0]
    spmv = per_call_ms(lambda: K @ x, 100)
    subst = per_call_ms(substitute)
    return {
        "order": order,
        "free_dofs": len(free),
        "nnz": int(M.nnz),
        "stable_step_ps": 1e12 * 2 / math.sqrt(lam),
        "product_ms": spmv,
        "cholesky_substitution_ms": subst,
        "substitution_in_products": subst / spmv,
        "kappa_jacobi_mass": kappa,
        "chebyshev_degree": degree,
        "chebyshev_step_in_products": degree + 1,
        "fes": fes,
        "m": m,
        "k": k,
    }


def local_steps(mesh, c: dict) -> dict:
    """Every element's stable step from its own matrices: the global λ_max is at most the largest
    element λ_max, and an ideal LTS steps each element at its own step."""
    fes = c["fes"]
    u, w = fes.TnT()
    eps = mesh.MaterialCF({"diel": EPS_R}, default=1.0)
    mi = ng.SymbolicBFI(eps / C0**2 * u * w)
    ki = ng.SymbolicBFI(ng.curl(u) * ng.curl(w))
    steps = []
    for el in mesh.Elements(ng.VOL):
        fel, trafo = fes.GetFE(el), mesh.GetTrafo(el)
        me = mi.CalcElementMatrix(fel, trafo).NumPy()
        ke = ki.CalcElementMatrix(fel, trafo).NumPy()
        lam = la.eigh(ke, me, eigvals_only=True)[-1]
        steps.append(2 / math.sqrt(lam))
    steps = np.array(steps)
    dt_min = steps.min()
    return {
        "elements": len(steps),
        "element_step_min_ps": 1e12 * dt_min,
        "element_step_median_ps": 1e12 * float(np.median(steps)),
        "elements_below_2x_min": int((steps < 2 * dt_min).sum()),
        # work of one global step count at dt_min against each element at its own step
        "ideal_lts_speedup": float(len(steps) / np.sum(dt_min / steps)),
    }


def dg(mesh, eps, order: int) -> dict:
    """Central-flux DG, leap-frog: ε∂E/∂t = ∇×H, μ∂H/∂t = −∇×E, PEC by mirroring E."""
    space = ng.VectorL2(mesh, order=order, dgjumps=True)
    e, v = space.TnT()
    n = ng.specialcf.normal(3)

    def curl(f):
        g = ng.grad(f)
        return ng.CF((g[2, 1] - g[1, 2], g[0, 2] - g[2, 0], g[1, 0] - g[0, 1]))

    def operator(mirror: float):
        a = ng.BilinearForm(space)
        a += curl(e) * v * ng.dx
        jump = e.Other(bnd=mirror * e) - e
        a += 0.5 * ng.Cross(n, jump) * v * ng.dx(element_boundary=True)
        return a.Assemble()

    c_e, c_h = operator(-1.0), operator(1.0)
    inv_e = space.Mass(eps / C0**2).Inverse()
    inv_h = space.Mass(ng.CF(1.0)).Inverse()
    x, y, t = (ng.GridFunction(space).vec for _ in range(3))
    x.SetRandom()

    def half_step():
        t.data = c_h.mat * x
        y.data = inv_e * t

    apply_ms = per_call_ms(half_step)
    lam = 0.0
    for _ in range(80):  # power iteration on the leap-frog operator M_E⁻¹ C_H M_H⁻¹ C_E
        t.data = c_e.mat * x
        y.data = inv_h * t
        t.data = c_h.mat * y
        y.data = inv_e * t
        lam = math.sqrt(ng.InnerProduct(y, y) / ng.InnerProduct(x, x))
        x.data = (1 / math.sqrt(ng.InnerProduct(y, y))) * y
    return {
        "order": order,
        "dofs_per_field": space.ndof,
        "unknowns": 2 * space.ndof,
        "half_step_ms": apply_ms,
        "step_ms": 2 * apply_ms,
        "stable_step_ps": 1e12 * 2 / math.sqrt(lam),
    }


def main() -> None:
    h_mm = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
    out = {"h_mm": h_mm, "eps_target": EPS_TARGET}
    for order in (1, 2):
        mesh = sphere_fieldline.sphere_mesh(h_mm, order)
        eps = mesh.MaterialCF({"diel": EPS_R}, default=1.0)
        c = conforming(mesh, eps, order)
        lts = local_steps(mesh, c)
        # the element bounds are pessimistic (the global step is larger than the smallest of them):
        # the saving against stepping everything at the global step
        lts["lts_speedup_vs_global_step"] = (
            lts["ideal_lts_speedup"] * lts["element_step_min_ps"] / c["stable_step_ps"]
        )
        for key in ("fes", "m", "k"):
            c.pop(key)
        out[f"p{order}"] = {"conforming": c, "lts": lts, "dg": dg(mesh, eps, order)}
        print(json.dumps({f"p{order}": out[f"p{order}"]}, indent=1), flush=True)
    (HERE / "out").mkdir(exist_ok=True)
    (HERE / "out" / "explicit_candidates.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
