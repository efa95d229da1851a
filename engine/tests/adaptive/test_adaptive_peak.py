"""Which elements the passes refine for a peak quantity (core/adaptive/peak.py): the band within 10 % of the
peak, highest first and capped, found through the field whose value at the peak's vertex is the peak."""

import numpy as np

from fieldline_engine.core.adaptive import peak
from fieldline_engine.core.fields import Field
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel

N = 41  # vertices on a line x = 0 … 40 m; tetrahedron i joins vertices i … i+3 (only topology matters here)


def _chain() -> TetModel:
    vertices = np.column_stack([np.arange(N, dtype=float), np.zeros(N), np.zeros(N)])
    tets = np.array([[i, i + 1, i + 2, i + 3] for i in range(N - 3)])
    empty = np.zeros((0, 3), dtype=np.int64)
    return TetModel(
        vertices,
        tets,
        np.zeros(len(tets), dtype=np.int64),
        ["Body"],
        empty,
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        1.0,
    )


def _solution(values: np.ndarray, name: str, at: int) -> Solution:
    s = Solution()
    s.add_field(Field("von_mises", "von Mises stress", "Pa", "scalar", values))
    s.quantities = {name: float(values[at]), name.rsplit("_", 1)[0] + "_location": [float(at), 0.0, 0.0]}
    return s


def test_a_maximum_refines_its_band_within_ten_percent(monkeypatch):
    model = _chain()
    x = np.arange(N, dtype=float)
    values = 100.0 - 2.0 * np.abs(x - 30)  # peak 100 at x = 30; ≥ 90 for |x − 30| ≤ 5
    monkeypatch.setattr(peak, "PEAK_SHARE", 1.0)
    marked = peak.peak_elements(model, "max_von_mises_Pa", _solution(values, "max_von_mises_Pa", 30))
    assert marked is not None
    print(f"band refined: tetrahedra {np.flatnonzero(marked).tolist()}")
    # every tetrahedron touching a vertex 25 … 35, and no other
    assert np.flatnonzero(marked).tolist() == list(range(22, 36))


def test_the_band_is_capped_highest_first_and_keeps_the_peaks_ring():
    model = _chain()
    x = np.arange(N, dtype=float)
    values = 100.0 - 2.0 * np.abs(x - 30)
    marked = peak.peak_elements(model, "max_von_mises_Pa", _solution(values, "max_von_mises_Pa", 30))
    assert marked is not None
    cap = max(1, int(peak.PEAK_SHARE * model.nt))
    chosen = set(np.flatnonzero(marked).tolist())
    ring = {27, 28, 29, 30}  # the tetrahedra at vertex 30
    assert ring <= chosen <= set(range(22, 36)) and len(chosen) == max(cap, len(ring))


def test_a_minimum_refines_the_band_above_it(monkeypatch):
    model = _chain()
    x = np.arange(N, dtype=float)
    values = 50.0 + np.abs(x - 10)  # minimum 50 at x = 10; ≤ 55 for |x − 10| ≤ 5
    monkeypatch.setattr(peak, "PEAK_SHARE", 1.0)
    marked = peak.peak_elements(model, "min_von_mises_Pa", _solution(values, "min_von_mises_Pa", 10))
    assert marked is not None and np.flatnonzero(marked).tolist() == list(range(2, 16))


def test_without_a_matching_field_only_the_peaks_ring_is_refined():
    model = _chain()
    values = np.linspace(0.0, 1.0, N)
    s = _solution(values, "max_von_mises_Pa", 30)
    s.quantities["max_von_mises_Pa"] = 7.0  # no field holds this value at the peak's vertex
    marked = peak.peak_elements(model, "max_von_mises_Pa", s)
    assert marked is not None and np.flatnonzero(marked).tolist() == [27, 28, 29, 30]
    assert peak.peak_elements(model, "strain_energy_J", s) is None
