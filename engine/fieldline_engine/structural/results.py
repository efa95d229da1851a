"""Named fields and quantities of a static solution (docs/structural.md).

Fields at the vertices: `displacement` (m, role deformation) — the vertex DOFs, exact at the nodes —,
`stress` (Pa, Voigt xx yy zz xy yz xz), `von_mises`, `principal_stress_max`, `principal_stress_min` (Pa):
the stress of each element evaluated at its vertices and averaged over the elements around each vertex
(the usual averaged nodal stress, as CalculiX and most codes report it).
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.elasticity.setup import ElasticSetup
from fieldline_engine.core.fields import Field
from fieldline_engine.core.materials import MaterialTable
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.vertex_fields import VertexSampler
from fieldline_engine.structural.static import StaticSolution


def tensor_from_voigt(s: np.ndarray) -> np.ndarray:
    """(n, 6) Voigt → (n, 3, 3) symmetric."""
    t = np.empty((len(s), 3, 3))
    t[:, 0, 0], t[:, 1, 1], t[:, 2, 2] = s[:, 0], s[:, 1], s[:, 2]
    t[:, 0, 1] = t[:, 1, 0] = s[:, 3]
    t[:, 1, 2] = t[:, 2, 1] = s[:, 4]
    t[:, 0, 2] = t[:, 2, 0] = s[:, 5]
    return t


def von_mises(s: np.ndarray) -> np.ndarray:
    xx, yy, zz, xy, yz, xz = (s[:, k] for k in range(6))
    return np.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3 * (xy**2 + yz**2 + xz**2))


def vertex_displacement(sol: StaticSolution, nv: int) -> np.ndarray:
    values = sol.displacement.vec.FV().NumPy()
    block = len(values) // 3
    # VectorH1 keeps component blocks; each block starts with the vertex DOFs (the nodal values).
    return np.stack([values[k * block : k * block + nv] for k in range(3)], axis=1)


def vertex_stress(sol: StaticSolution, mesh: ng.Mesh) -> np.ndarray:
    return VertexSampler(mesh)(sol.elasticity.voigt_stress(sol.displacement))


def _where(model: TetModel, i: int) -> list[float]:
    """A vertex position in the model's own length unit (as the viewer and the results' vertices)."""
    return [float(c) for c in model.vertices[i] / model.unit_scale]


def structural_solution(
    model: TetModel,
    mesh: ng.Mesh,
    setup: ElasticSetup,
    materials: MaterialTable,
    sol: StaticSolution,
    order: int,
) -> Solution:
    u = vertex_displacement(sol, model.nv)
    stress = vertex_stress(sol, mesh)
    vm = von_mises(stress)
    principal = np.linalg.eigvalsh(tensor_from_voigt(stress))
    out = Solution(
        solver_info={
            "matrix_size": int(sol.elasticity.fes.ndof),
            "non_zeros": sol.non_zeros,
            "analysis": "structural",
            "element_order": order,
            **sol.report.as_info(),
        }
    )
    # von Mises first: what the viewer shows by default, on the deformed shape.
    out.add_field(Field("von_mises", "Von Mises stress", "Pa", "scalar", vm))
    out.add_field(Field("displacement", "Displacement", "m", "vector", u, role="deformation"))
    out.add_field(Field("principal_stress_max", "Maximum principal stress", "Pa", "scalar", principal[:, 2]))
    out.add_field(Field("principal_stress_min", "Minimum principal stress", "Pa", "scalar", principal[:, 0]))
    out.add_field(Field("stress", "Stress", "Pa", "tensor", stress))
    out.quantities = structural_quantities(model, setup, materials, sol, u, vm)
    return out


def structural_quantities(
    model: TetModel,
    setup: ElasticSetup,
    materials: MaterialTable,
    sol: StaticSolution,
    u: np.ndarray,
    vm: np.ndarray,
) -> dict[str, Any]:
    magnitude = np.linalg.norm(u, axis=1)
    i_u, i_s = int(np.argmax(magnitude)), int(np.argmax(vm))
    reactions = [
        {"support": s.name, "reaction_N": [float(c) for c in sol.reactions[s.label]]} for s in setup.supports
    ]
    total_reaction = np.sum([sol.reactions[s.label] for s in setup.supports], axis=0)
    # Against the largest force in play: a thermal load applies no net force, its supports push each other.
    largest_reaction = max(
        (float(np.max(np.abs(sol.reactions[s.label]))) for s in setup.supports), default=0.0
    )
    scale = max(float(np.linalg.norm(sol.applied)), largest_reaction, 1e-300)
    quantities: dict[str, Any] = {
        "max_displacement_m": float(magnitude[i_u]),
        "max_displacement_location": _where(model, i_u),
        "max_von_mises_Pa": float(vm[i_s]),
        "max_von_mises_location": _where(model, i_s),
        "strain_energy_J": sol.strain_energy,
        "applied_load_N": [float(c) for c in sol.applied],
        "reactions": reactions,
        "total_reaction_N": [float(c) for c in total_reaction],
        # Equilibrium: the supports hold exactly what is applied; the residual is the solver's accuracy.
        "reaction_balance_error": float(np.linalg.norm(total_reaction + sol.applied) / scale),
    }
    factor = safety_factor(model, materials, vm)
    if factor is not None:
        quantities["safety_factor"] = factor
    return quantities


def safety_factor(model: TetModel, materials: MaterialTable, vm: np.ndarray) -> float | None:
    """Yield strength over the largest von Mises stress, the smallest over the bodies whose yield strength
    is known; None when no body's is."""
    factors = []
    for body, strength in enumerate(materials.column("yieldStrength")):
        if not np.isfinite(strength) or strength <= 0:
            continue
        vertices = np.unique(model.tetrahedra[model.regions == body])
        peak = float(np.max(vm[vertices])) if len(vertices) else 0.0
        if peak > 0:
            factors.append(strength / peak)
    return float(min(factors)) if factors else None
