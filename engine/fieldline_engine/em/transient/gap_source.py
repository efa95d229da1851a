"""A voltage source between Dirichlet face groups: a resistive lumped port on the gap between them.

In the E-field formulation a conductor is PEC (E_t = 0) whatever its potential, so a voltage between
two conductors has to be applied where they do not touch: the gap, i.e. the outer faces without a
condition that border conductors at different voltages (the annulus at a coax feed, the slot of a
gap-fed dipole). On the gap the source field is e = −∇_s φ, φ the surface-harmonic potential that
takes each group's voltage on the gap's edges (a P1 Laplace–Beltrami solve), and the gap is a
resistive sheet (a Thevenin source with EMF g(t)·ΔV and series resistance R):

    n×H = (1/Z_s)(g(t)·e − E_t),   Z_s = R·∫|e|²dA/ΔV²

so the sheet carries the current (g·ΔV − V)/R for the field shape e (exact for a coaxial annulus,
where Z_s = 2πR/ln(b/a), and for a uniform rectangular gap, where Z_s = R·w/l, as Palace's lumped
ports). R is `portImpedance` (50 Ω by default): a matched source absorbs the waves that come back.
"""

from dataclasses import dataclass

import ngsolve as ng
import numpy as np

from fieldline_engine.em.boundary_conditions import DirichletGroup
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.ngsolve_mesh import DEFAULT_LABEL
from fieldline_engine.mesh.tet_model import TetModel


@dataclass
class GapFaces:
    label: str
    rows: np.ndarray  # rows of model.faces on the gap
    fixed: dict[int, float]  # vertex → volts on the gap's edges
    groups: list[str]  # names of the face groups it joins


def find_gaps(model: TetModel, labels: np.ndarray, groups: list[DirichletGroup]) -> list[GapFaces]:
    """Connected sets of unlabelled outer faces that touch face groups at two or more voltages."""
    candidates = np.nonzero((model.face_outer_region < 0) & (labels == DEFAULT_LABEL))[0]
    if not len(candidates) or len({g.voltage for g in groups}) < 2:
        return []
    vertex_volts: dict[int, tuple[float, str]] = {}
    for g in groups:
        for v in np.unique(model.faces[labels == g.label]):
            vertex_volts.setdefault(int(v), (g.voltage, g.name))
    tris = model.faces[candidates]
    edges = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    owner = np.tile(np.arange(len(candidates)), 3)
    _, edge_id = np.unique(edges, axis=0, return_inverse=True)
    edge_id = edge_id.ravel()
    # Faces are linked when they share an edge: join each face to the first face of each of its edges.
    order = np.argsort(edge_id, kind="stable")
    first = np.empty(edge_id.max() + 1, dtype=np.int64)
    first[edge_id[order[::-1]]] = owner[order[::-1]]
    # imported here: scipy.sparse.csgraph pulls in scipy.sparse.linalg, which a run without gaps never needs
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(owner)), (owner, first[edge_id])), shape=(len(candidates),) * 2)
    count, comp = connected_components(graph, directed=False)
    gaps: list[GapFaces] = []
    for c in range(count):
        rows = candidates[comp == c]
        fixed = {int(v): vertex_volts[int(v)] for v in np.unique(model.faces[rows]) if int(v) in vertex_volts}
        volts = {val for val, _ in fixed.values()}
        if len(volts) >= 2:
            names = sorted({name for _, name in fixed.values()})
            gaps.append(GapFaces(f"gap_{len(gaps)}", rows, {v: val for v, (val, _) in fixed.items()}, names))
    return gaps


@dataclass
class GapSource:
    label: str
    groups: list[str]
    resistance: float  # Ω, the source's series resistance
    delta_v: float  # EMF amplitude in volts (the largest voltage difference on the gap)
    sheet_impedance: float  # Z_s in Ω
    source_field: ng.CoefficientFunction  # −∇_s φ (V/m) for g = 1
    field_norm: float  # ∫|e|² dA
    area: float

    def describe(self) -> dict[str, object]:
        return {
            "label": self.label,
            "between": self.groups,
            "emf_amplitude_v": self.delta_v,
            "source_resistance_ohm": self.resistance,
            "sheet_impedance_ohm": self.sheet_impedance,
            "gap_area_m2": self.area,
        }


def build_gap_source(mesh: ng.Mesh, gap: GapFaces, resistance: float) -> GapSource:
    if resistance <= 0:
        raise InvalidInput("portImpedance (the voltage source's series resistance) must be above 0 Ω.")
    region = mesh.Boundaries(gap.label)
    fes = ng.H1(mesh, order=1, definedon=region)
    u, v = fes.TnT()
    a = ng.BilinearForm(ng.grad(u).Trace() * ng.grad(v).Trace() * ng.ds(gap.label)).Assemble()
    phi = ng.GridFunction(fes)
    free = ng.BitArray(fes.FreeDofs())
    for vertex, volts in gap.fixed.items():
        for dof in fes.GetDofNrs(ng.NodeId(ng.VERTEX, vertex)):
            if dof >= 0:
                phi.vec[dof] = volts
                free[dof] = False
    rhs = phi.vec.CreateVector()
    rhs.data = -a.mat * phi.vec
    phi.vec.data += a.mat.Inverse(free, inverse="sparsecholesky") * rhs
    field = -ng.grad(phi).Trace()
    volts = list(gap.fixed.values())
    delta_v = float(max(volts) - min(volts))
    energy = float(ng.Integrate(field * field, mesh, ng.BND, definedon=region))
    area = float(ng.Integrate(ng.CF(1.0), mesh, ng.BND, definedon=region))
    if energy <= 0:
        raise InvalidInput(f"Voltage source on {gap.label}: the gap carries no field; check the face groups.")
    z_s = resistance * energy / (delta_v * delta_v)
    return GapSource(gap.label, gap.groups, resistance, delta_v, z_s, field, energy, area)
