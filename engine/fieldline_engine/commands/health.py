"""`health`: library versions and the direct solvers that really work in this installation."""

import platform
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fieldline_engine import __version__

PACKAGES = ("ngsolve", "netgen-mesher", "gmsh", "numpy", "scipy")
# Order of preference for sparse direct solvers (notes: wheels >= 6.2.2604 ship UMFPACK, not MKL).
DIRECT_SOLVERS = ("umfpack", "pardiso", "mumps", "sparsecholesky")


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "missing"


def available_direct_solvers() -> list[str]:
    """Factorizes a tiny system with each solver; only those that succeed are reported."""
    import ngsolve as ng
    from netgen.occ import Box, OCCGeometry

    mesh = ng.Mesh(OCCGeometry(Box((0, 0, 0), (1, 1, 1))).GenerateMesh(maxh=0.6))
    fes = ng.H1(mesh, order=1, dirichlet=".*")
    u, v = fes.TnT()
    a = ng.BilinearForm(ng.grad(u) * ng.grad(v) * ng.dx + u * v * ng.dx).Assemble()
    working = []
    for name in DIRECT_SOLVERS:
        try:
            a.mat.Inverse(fes.FreeDofs(), inverse=name)
            working.append(name)
        except Exception:  # noqa: BLE001 - an unavailable solver raises differently per build
            continue
    return working


def health_report() -> dict[str, Any]:
    import ngsolve.config as ngconfig

    versions = {name: _package_version(name) for name in PACKAGES}
    versions["fieldline_engine"] = __version__
    versions["python"] = platform.python_version()
    return {
        "versions": versions,
        "direct_solvers": available_direct_solvers(),
        "build_flags": {
            flag: bool(getattr(ngconfig, flag, False))
            for flag in ("USE_UMFPACK", "USE_PARDISO", "USE_MKL", "USE_MUMPS", "USE_CUDA")
        },
    }
