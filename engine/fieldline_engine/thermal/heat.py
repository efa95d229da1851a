"""The discrete heat equation ρc ∂T/∂t − ∇·(k∇T) = q on H1 elements, with its boundary conditions.

Weak form: ∫ ρc ∂T/∂t v + ∫ k ∇T·∇v + Σ ∫ h T v ds (+ radiation) = ∫ q v + Σ ∫ q_in v ds + Σ ∫ h T∞ v ds,
T fixed on temperature-condition faces. Radiation εσ(T∞⁴ − T⁴) is linearised about a state T₀:
4εσT₀³ T on the left, εσ(T∞⁴ + 3T₀⁴) on the right — Newton's method for a steady run, one linearisation
per step for a transient one.

Heat flows per condition come from the same discrete forms, so they balance exactly (to the solver's
accuracy): a fixed-temperature face's flow is the residual of the unconstrained system at its DOFs,
weighted by the function that is 1 on the face, like the structural reactions.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.core.materials import MaterialTable
from fieldline_engine.thermal.setup import ThermalSetup

STEFAN_BOLTZMANN = 5.670374419e-8  # W/(m²·K⁴)


class HeatProblem:
    def __init__(
        self,
        mesh: ng.Mesh,
        materials: MaterialTable,
        setup: ThermalSetup,
        order: int,
        extra_source: ng.CoefficientFunction | None = None,
    ):
        self.mesh, self.setup, self.order = mesh, setup, order
        kwargs = {"order": order}
        fixed = "|".join(f.label for f in setup.fixed)
        if fixed:
            kwargs["dirichlet"] = fixed
        if order > 1:
            # Vertex-only wirebasket: BDDC (the iterative path for large models) condenses the edge and face
            # DOFs element by element and hands AMG a vertex problem, as core/h1_scalar.py does.
            kwargs["wb_withedges"] = False
        self.fes = ng.H1(mesh, **kwargs)
        self.k = materials.coefficient(mesh, "thermalConductivity")
        self.rho_c = materials.coefficient(mesh, "density") * materials.coefficient(mesh, "heatCapacity")
        self.source = self._volume_source(mesh, setup, extra_source)

    @staticmethod
    def _volume_source(mesh: ng.Mesh, setup: ThermalSetup, extra: ng.CoefficientFunction | None):
        """Heat sources per body (W → W/m³ over the body's volume) plus the Joule heat, as one CF."""
        density: dict[str, float] = {}
        for s in setup.sources:
            body = f"body{s.body}"
            if s.density is not None:
                value = s.density
            else:
                volume = ng.Integrate(ng.CF(1.0), mesh, definedon=mesh.Materials(body))
                value = (s.power or 0.0) / volume
            density[body] = density.get(body, 0.0) + value
        cf = mesh.MaterialCF(density, default=0.0) if density else ng.CF(0.0)
        return cf + extra if extra is not None else cf

    # ------------------------------------------------------------------ forms

    def conduction(self, state: ng.GridFunction | None) -> ng.BilinearForm:
        """A: conduction, convection and (linearised about `state`) radiation."""
        u, v = self.fes.TnT()
        a = ng.BilinearForm(self.fes, symmetric=True)
        a += self.k * ng.grad(u) * ng.grad(v) * ng.dx
        for c in self.setup.convection:
            a += c.coefficient * u * v * ng.ds(c.label)
        for r in self.setup.radiation:
            a += 4 * r.emissivity * STEFAN_BOLTZMANN * state**3 * u * v * ng.ds(r.label)
        return a

    def load(self, state: ng.GridFunction | None) -> ng.LinearForm:
        """F: volume sources, heat fluxes, convection's ambient and radiation's linearised source."""
        v = self.fes.TestFunction()
        f = ng.LinearForm(self.fes)
        f += self.source * v * ng.dx
        for q in self.setup.fluxes:
            f += q.flux * v * ng.ds(q.label)
        for c in self.setup.convection:
            f += c.coefficient * c.ambient * v * ng.ds(c.label)
        for r in self.setup.radiation:
            f += r.emissivity * STEFAN_BOLTZMANN * (r.ambient**4 + 3 * state**4) * v * ng.ds(r.label)
        return f

    def mass(self) -> ng.BilinearForm:
        u, v = self.fes.TnT()
        m = ng.BilinearForm(self.fes, symmetric=True)
        m += self.rho_c * u * v * ng.dx
        return m

    def fixed_values(self) -> ng.GridFunction:
        """The fixed temperatures on their faces' DOFs, zero elsewhere."""
        gf = ng.GridFunction(self.fes)
        values = gf.vec.FV().NumPy()
        scratch = ng.GridFunction(self.fes)
        for f in self.setup.fixed:
            scratch.Set(ng.CF(f.temperature), ng.BND, definedon=self.mesh.Boundaries(f.label))
            dofs = self._dofs(f.label)
            values[dofs] = scratch.vec.FV().NumPy()[dofs]
        return gf

    def _dofs(self, label: str) -> np.ndarray:
        return bits.indices(self.fes.GetDofs(self.mesh.Boundaries(label)))

    # ------------------------------------------------------------------ heat flows (W, into the body)

    def fixed_face_flows(self, residual: np.ndarray) -> dict[str, float]:
        """Heat each fixed-temperature face supplies: the residual at its DOFs (a DOF on the edge between two
        such faces counts for the first)."""
        claimed = np.zeros(self.fes.ndof, dtype=bool)
        out: dict[str, float] = {}
        for f in self.setup.fixed:
            dofs = self._dofs(f.label)
            dofs = dofs[~claimed[dofs]]
            claimed[dofs] = True
            unit = ng.GridFunction(self.fes)
            unit.Set(ng.CF(1.0), ng.BND, definedon=self.mesh.Boundaries(f.label))
            out[f.label] = float(np.sum(residual[dofs] * unit.vec.FV().NumPy()[dofs]))
        return out

    def boundary_flows(
        self, theta_state: ng.CoefficientFunction, linearised_about: ng.CoefficientFunction | None
    ):
        """Heat into the body through flux, convection and radiation faces for the state `theta_state`
        (radiation as linearised about `linearised_about`, as the discrete system has it)."""
        out: dict[str, float] = {}
        for q in self.setup.fluxes:
            out[q.label] = q.flux * ng.Integrate(ng.CF(1.0) * ng.ds(q.label), self.mesh)
        for c in self.setup.convection:
            out[c.label] = float(
                ng.Integrate(c.coefficient * (c.ambient - theta_state) * ng.ds(c.label), self.mesh)
            )
        for r in self.setup.radiation:
            t0 = linearised_about
            flux = r.emissivity * STEFAN_BOLTZMANN * (r.ambient**4 + 3 * t0**4 - 4 * t0**3 * theta_state)
            out[r.label] = float(ng.Integrate(flux * ng.ds(r.label), self.mesh))
        return out

    def source_power(self) -> float:
        return float(ng.Integrate(self.source * ng.dx, self.mesh))

    def stored_energy(self, temperature: ng.CoefficientFunction) -> float:
        return float(ng.Integrate(self.rho_c * temperature * ng.dx, self.mesh))
