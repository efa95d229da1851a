"""Isotropic linear elasticity on NGSolve: the displacement space, stiffness and mass, strain and stress.

σ = λ tr(ε) I + 2μ ε, ε = sym ∇u, with the Lamé parameters of each body's Young's modulus E and
Poisson's ratio ν: μ = E / 2(1+ν), λ = Eν / (1+ν)(1−2ν). Shared by the structural family (static) and by
vibration (modal and harmonic), which adds the consistent mass ∫ ρ u·v.
"""

from dataclasses import dataclass, field

import ngsolve as ng

from fieldline_engine.core.materials import MaterialTable

# Voigt order of the stress tensor in the results (docs/multiphysics.md §1): xx yy zz xy yz xz.
VOIGT = ((0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (0, 2))


@dataclass
class ComponentDirichlet:
    """Region labels (regex alternatives) whose x, y or z displacement is prescribed: on faces (x, y, z),
    on edges (BBND regions) and at points (BBBND regions)."""

    x: list[str]
    y: list[str]
    z: list[str]
    edges: tuple[list[str], list[str], list[str]] = field(default_factory=lambda: ([], [], []))
    points: tuple[list[str], list[str], list[str]] = field(default_factory=lambda: ([], [], []))

    def flags(self) -> dict[str, str]:
        out = {}
        for suffix, axes in (("", (self.x, self.y, self.z)), ("_bbnd", self.edges), ("_bbbnd", self.points)):
            for axis, labels in zip("xyz", axes, strict=True):
                if labels:
                    out[f"dirichlet{axis}{suffix}"] = "|".join(sorted(set(labels)))
        return out


class Elasticity:
    def __init__(self, mesh: ng.Mesh, materials: MaterialTable, order: int, fixed: ComponentDirichlet):
        self.mesh = mesh
        self.order = order
        self.fixed = fixed
        self.fes = self.space(order)
        E = materials.coefficient(mesh, "youngsModulus")
        nu = materials.coefficient(mesh, "poissonRatio")
        self.rho = materials.coefficient(mesh, "density")
        self.mu = E / (2 * (1 + nu))
        self.lam = E * nu / ((1 + nu) * (1 - 2 * nu))
        self.alpha = materials.coefficient(mesh, "thermalExpansion")
        # The stress a free thermal strain α ΔT I would cause if held, (3λ + 2μ) α ΔT I
        # (core/elasticity/thermal.py); None without a thermal load.
        self.eigen_stress: ng.CoefficientFunction | None = None
        # An initial stress σ₀ (3 × 3) whose geometric stiffness K_σ joins K (prestressed modes,
        # core/elasticity/prestress.py); None for an unstressed model.
        self.prestress: ng.CoefficientFunction | None = None

    def space(self, order: int) -> ng.FESpace:
        """The displacement space of an order with this model's prescribed components (the solve's own
        space, or the first-order space of the two-level preconditioner, core/elasticity/vertex_coarse.py)."""
        # Vertex-only wirebasket at order ≥ 2: BDDC (`linearSolver: cg-bddc`) condenses edge, face
        # and cell DOFs element by element and factors only the vertex problem, ~1/8 of the unknowns (at order 2
        # the default vertex + edge wirebasket is every DOF: BDDC was a direct solve). LE10 at 216 k DOFs:
        # 30 CPU s / 0.73 GB against 97 s / 2.9 GB (bench/structural/README.md).
        wirebasket = {"wb_withedges": False} if order >= 2 else {}
        return ng.VectorH1(self.mesh, order=order, **self.fixed.flags(), **wirebasket)

    @staticmethod
    def strain(u: ng.CoefficientFunction) -> ng.CoefficientFunction:
        return ng.Sym(ng.Grad(u))

    def stress(self, u: ng.CoefficientFunction) -> ng.CoefficientFunction:
        eps = self.strain(u)
        return 2 * self.mu * eps + self.lam * ng.Trace(eps) * ng.Id(3)

    def stiffness(
        self, mass_shift: float = 0.0, symmetric_storage: bool = False, space: ng.FESpace | None = None
    ) -> ng.BilinearForm:
        """K, or K + mass_shift · M (positive definite for a free body too, for a preconditioner), on the
        solve's space or on `space`. `symmetric_storage` keeps only the lower triangle, and BDDC then builds
        its symmetric variants (no transposed harmonic extension): 2.3 → 1.4 kB per DOF for K and BDDC at
        order 2. Not for matrices handed to SciPy/pyamg, which read the stored entries as the whole matrix."""
        fes = space or self.fes
        u, v = fes.TnT()
        a = ng.BilinearForm(fes, symmetric=True, symmetric_storage=symmetric_storage)
        a += self.stiffness_integrand(u, v) * ng.dx
        if mass_shift:
            a += mass_shift * self.rho * u * v * ng.dx
        return a

    def stiffness_integrand(self, u, v) -> ng.CoefficientFunction:
        """σ(u) : ε(v), plus the geometric stiffness σ₀ : (∇uᵀ∇v) = Σ σ₀_ij ∂_i u_k ∂_j v_k of a prestress."""
        integrand = ng.InnerProduct(self.stress(u), self.strain(v))
        if self.prestress is not None:
            integrand += ng.InnerProduct(ng.Grad(u) * self.prestress, ng.Grad(v))
        return integrand

    def mass(self) -> ng.BilinearForm:
        u, v = self.fes.TnT()
        m = ng.BilinearForm(self.fes, symmetric=True)
        m += self.rho * u * v * ng.dx
        return m

    def voigt_stress(self, u: ng.CoefficientFunction) -> ng.CoefficientFunction:
        """The stress as six components (xx yy zz xy yz xz), for sampling at vertices."""
        s = self.stress(u)
        if self.eigen_stress is not None:
            s = s - self.eigen_stress  # σ = C(ε − ε_th)
        return ng.CF(tuple(s[i, j] for i, j in VOIGT))
