"""The H1 scalar problem every family with a scalar unknown shares (electrostatics, steady conduction,
quasi-statics; heat conduction builds on it):

    −∇·(κ∇φ) = 0,  κ = ε (electrostatics), σ (steady conduction), σ + jωε (quasi-statics), k (heat),

with H1 elements of order 1–3. Dirichlet face groups fix potentials (constant, or a profile), Neumann
faces inject a normal flux (κ∇φ·n = flux: surface charge density or injected current density), Robin
faces (impedance to ground) add ∫ y φ v ds with y an admittance per unit area, lone nodes and the
reference node are fixed through their vertex DOF. `definedon` restricts the problem to some bodies
and `interface` (+ `interface_values`) fixes the potential on extra boundary faces: that is how a DC
solve hands the conductors' potential to the insulators around them.

Terminal fluxes (charges or currents) come from the residual of the full, unconstrained system
r = A φ − f summed over a terminal's DOFs: exact for the discrete solution and more accurate than
integrating κ∇φ·n over the terminal.
"""

from dataclasses import dataclass
from typing import Any, Protocol

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.core.linear_solve import LinearSolver
from fieldline_engine.core.p1_stiffness import CsrOperator, mesh_p1_stiffness
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT


class FixedValueGroup(Protocol):
    """A Dirichlet group: boundary `label` held at `voltage` (a value in the problem's unit: volts, kelvin)
    or at a `profile` coefficient function when that is set."""

    label: str
    voltage: float
    profile: Any


class ScalarBoundaries(Protocol):
    """What the scalar solver reads of a family's resolved boundary conditions."""

    dirichlet: list[FixedValueGroup]
    dirichlet_vertices: dict[int, float]  # vertex index → fixed value
    neumann: list[tuple[str, float]]  # (boundary label, normal flux into the domain)


@dataclass
class SolverOptions:
    choice: str = "auto"
    tolerance: float = 1e-6
    max_iterations: int = 1000

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "SolverOptions":
        from fieldline_engine.core.linear_solve import solver_choice

        return cls(
            solver_choice(config),
            float(config.get("tolerance", 1e-6)),
            int(config.get("maxIterations", 1000)),
        )


class PotentialSolver:
    def __init__(
        self,
        mesh: ng.Mesh,
        kappa: ng.CoefficientFunction,
        bnd: ScalarBoundaries,
        order: int,
        options: SolverOptions,
        *,
        complex_valued: bool = False,
        robin: list[tuple[str, Any]] | None = None,
        neumann: list[tuple[str, float]] | None = None,
        definedon: str | None = None,
        interface: ng.Region | None = None,
        interface_values: ng.CoefficientFunction | None = None,
        fixed_vertices: dict[int, float] | None = None,
        progress: Any = None,
        what: str = "potential",
        kappa_by_body: list[float] | None = None,
    ):
        self.mesh, self.kappa, self.bnd, self.order = mesh, kappa, bnd, order
        self.fixed_vertices = dict(fixed_vertices if fixed_vertices is not None else bnd.dirichlet_vertices)
        self.progress = progress or SILENT
        self.interface, self.interface_values = interface, interface_values
        self.whole_mesh = definedon is None  # a group's faces outside `definedon` would get no projection
        kwargs: dict[str, Any] = {"order": order, "complex": complex_valued}
        dirichlet = _dirichlet_region(mesh, {g.label for g in bnd.dirichlet}, interface)
        if dirichlet is not None:
            kwargs["dirichlet"] = dirichlet
        if definedon is not None:
            kwargs["definedon"] = definedon
        if order > 1:
            kwargs["wb_withedges"] = False  # vertex-only wirebasket: BDDC can use AMG as coarse solver
        self.fes = ng.H1(mesh, **kwargs)
        u, v = self.fes.TnT()
        self.a = ng.BilinearForm(self.fes, symmetric=True)
        self.a += ng.InnerProduct(kappa * ng.grad(u), ng.grad(v)) * ng.dx
        for label, admittance in robin or []:
            self.a += admittance * u * v * ng.ds(label)
        self.f = ng.LinearForm(self.fes)
        self.has_sources = False
        for label, flux in bnd.neumann if neumann is None else neumann:
            if flux != 0.0:
                self.f += flux * v * ng.ds(label)
                self.has_sources = True
        self.solver = LinearSolver(
            self.a,
            self.fes,
            options.choice,
            options.tolerance,
            options.max_iterations,
            kind="h1",
            progress=lambda frac, msg: self.progress(0.3 + 0.7 * frac, msg),
        )
        self.progress(0.0, f"Assembling the {what} system ({self.fes.ndof} DOFs)")
        # κ as plain numbers per body (a real scalar constant on each) lets order 1 skip NGSolve's element loop.
        closed_form = order == 1 and not complex_valued and not robin and definedon is None
        with parallel(self.fes.ndof):
            assemble(self.a, self.f, self.solver, mesh, kappa_by_body if closed_form else None)
        self.matrix = self.solver.mat  # a.mat, or the closed-form P1 matrix the solver was given
        self.freedofs = ng.BitArray(self.fes.FreeDofs())
        # H1 numbers vertex DOFs first, so vertex i is DOF i.
        for vertex in self.fixed_vertices:
            self.freedofs.Clear(vertex)
        self.progress(0.25, "Factorizing" if self.solver.method == "direct" else "Preconditioner ready")
        self.solver.prepare(self.freedofs)
        self._dof_cache: dict[str, np.ndarray] = {}
        self._weight_cache: dict[str, np.ndarray] = {}

    @property
    def non_zeros(self) -> int:
        return int(self.matrix.nze)

    @property
    def ndof(self) -> int:
        return int(self.fes.ndof)

    @property
    def nfree(self) -> int:
        return int(self.freedofs.NumSet())

    def solve(
        self,
        voltages: dict[str, complex] | None = None,
        with_sources: bool = True,
        label: str = "Solving",
    ) -> ng.GridFunction:
        """Solution for the configured voltages, or for `voltages` (label → volts, other groups and
        fixed nodes at 0 V; no Neumann sources) when computing a terminal matrix column."""
        g = ng.GridFunction(self.fes)
        values = g.vec.FV().NumPy()
        scratch = ng.GridFunction(self.fes)
        if self.interface is not None and self.interface_values is not None:
            scratch.Set(self.interface_values, ng.BND, definedon=self.interface)
            dofs = bits.indices(self.fes.GetDofs(self.interface))
            values[dofs] = scratch.vec.FV().NumPy()[dofs]
        for group in self.bnd.dirichlet:
            if voltages is None:
                value = group.profile if group.profile is not None else ng.CF(group.voltage)
            else:
                value = ng.CF(voltages.get(group.label, 0.0))
            # Set() rewrites the whole vector, so project each group on its own and copy its DOFs.
            scratch.Set(value, definedon=self.mesh.Boundaries(group.label))
            dofs = self.group_dofs(group.label)
            values[dofs] = scratch.vec.FV().NumPy()[dofs]
        for vertex, volts in self.fixed_vertices.items():
            g.vec[vertex] = volts if voltages is None else 0.0
        rhs = g.vec.CreateVector()
        if with_sources and voltages is None:
            rhs.data = self.f.vec - self.matrix * g.vec
        else:
            rhs.data = -self.matrix * g.vec
        self.solver.solve(rhs, g, label)
        return g

    def residual(self, g: ng.GridFunction, with_sources: bool = True) -> np.ndarray:
        r = g.vec.CreateVector()
        if with_sources:
            r.data = self.matrix * g.vec - self.f.vec
        else:
            r.data = self.matrix * g.vec
        return r.FV().NumPy().copy()

    def group_dofs(self, label: str) -> np.ndarray:
        """DOFs a group owns. Where groups touch, the later group sets the shared DOFs (as in
        `solve`), so it alone owns them: fluxes and matrices then stay consistent and symmetric."""
        if not self._dof_cache:
            taken = np.zeros(self.fes.ndof, dtype=bool)
            for group in reversed(self.bnd.dirichlet):
                mask = bits.mask(self.fes.GetDofs(self.mesh.Boundaries(group.label))) & ~taken
                self._dof_cache[group.label] = np.nonzero(mask)[0]
                taken |= mask
        return self._dof_cache[label]

    def group_weights(self, label: str) -> tuple[np.ndarray, np.ndarray]:
        """The group's DOFs and the coefficients of the function that is 1 on the group (1 at vertex
        DOFs, the projection's values at higher-order ones): flux = Σ wᵢ rᵢ."""
        key = "w:" + label
        if key not in self._weight_cache:
            dofs = self.group_dofs(label)
            if self.order == 1 and self.whole_mesh:  # every DOF a vertex's, where it is 1: nothing to project
                self._weight_cache[key] = np.ones(len(dofs))
                return dofs, self._weight_cache[key]
            scratch = ng.GridFunction(self.fes)
            scratch.Set(ng.CF(1.0), definedon=self.mesh.Boundaries(label))
            self._weight_cache[key] = scratch.vec.FV().NumPy()[dofs].copy()
        return self.group_dofs(label), self._weight_cache[key]

    def flux_of(self, r: np.ndarray, label: str) -> complex:
        dofs, weights = self.group_weights(label)
        return complex(np.sum(r[dofs] * weights))

    def terminal_fluxes(self, g: ng.GridFunction, with_sources: bool = True) -> dict[str, complex]:
        """Flux out of each Dirichlet group into the domain: charge (electrostatics) or current."""
        r = self.residual(g, with_sources)
        return {grp.label: self.flux_of(r, grp.label) for grp in self.bnd.dirichlet}

    def terminal_matrix(self, labels: list[str]) -> np.ndarray:
        """Column j: fluxes of every group when group j is at 1 V and all others at 0 V (Maxwell
        capacitance, conductance or admittance matrix). Symmetric up to the solver's accuracy."""
        n = len(labels)
        matrix = np.zeros((n, n), dtype=complex)
        for j, label in enumerate(labels):
            self.progress(0.3 + 0.7 * j / n, f"Terminal matrix column {j + 1} of {n}")
            g = self.solve(voltages={label: 1.0}, label=f"Terminal matrix column {j + 1}")
            r = self.residual(g, with_sources=False)
            for i, other in enumerate(labels):
                matrix[i, j] = self.flux_of(r, other)
        return matrix


def assemble(
    a: ng.BilinearForm,
    f: ng.LinearForm,
    solver: LinearSolver,
    mesh: ng.Mesh,
    kappa_by_body: list[float] | None,
) -> None:
    """Assembles f, and a — or, when `kappa_by_body` is given (a = ∫ κ ∇u·∇v alone, order 1, real, κ a constant
    per body), the solver takes a matrix (pyamg CG) and the mesh is straight tetrahedra, the closed-form P1
    stiffness instead (core/p1_stiffness.py: faster than NGSolve's element loop, the same entries up to
    round-off; bench/em-static)."""
    matrix = None
    if kappa_by_body is not None and solver.takes_first_order_matrix:
        matrix = mesh_p1_stiffness(mesh, kappa_by_body)
    if matrix is None:
        a.Assemble()
    else:
        solver.use_matrix(CsrOperator(matrix))
    f.Assemble()


def _dirichlet_region(mesh: ng.Mesh, labels: set[str], interface: ng.Region | None) -> ng.Region | None:
    names = mesh.GetBoundaries()
    mask = ng.BitArray(len(names))
    mask.Clear()
    for i, name in enumerate(names):
        if name in labels:
            mask.Set(i)
    if interface is not None:
        mask |= interface.Mask()
    return ng.Region(mesh, ng.BND, mask) if mask.NumSet() else None
