"""The mesh's surface triangles of given boundary labels, read in one pass from netgen's arrays.

Walking `mesh.Elements(ng.BND)` from Python costs microseconds an element, and the port code needs the
triangles of a few labels several times over; netgen hands them over as one NumPy array.
"""

import ngsolve as ng
import numpy as np


def _named(mesh: ng.Mesh, names: set[str]) -> tuple[np.ndarray, np.ndarray]:
    """(mask over the surface elements, their netgen records) for the labels in `names`."""
    ngmesh = mesh.ngmesh
    elements = ngmesh.Elements2D().NumPy()
    index = elements["index"]
    keep = np.zeros(int(index.max(initial=0)) + 1, dtype=bool)
    for i in np.unique(index).tolist():
        keep[i] = ngmesh.FaceDescriptor(i).bcname in names
    return keep[index], elements


def triangles_named(mesh: ng.Mesh, names: set[str]) -> np.ndarray:
    """Vertex numbers (0-based, NGSolve's `v.nr`) of the surface triangles whose boundary label (what
    `el.mat` says) is in `names`."""
    mask, elements = _named(mesh, names)
    return elements["nodes"][mask, :3].astype(np.int64) - 1


def elements_named(mesh: ng.Mesh, names: set[str]) -> list[ng.ElementId]:
    """The surface elements (NGSolve's BND element ids, numbered as netgen lists them) with those labels."""
    mask, _ = _named(mesh, names)
    return [ng.ElementId(ng.BND, int(i)) for i in np.nonzero(mask)[0]]


def edges_of(triangles: np.ndarray) -> set[tuple[int, int]]:
    """The triangles' edges as sorted vertex-number pairs."""
    pairs = np.sort(triangles[:, [[0, 1], [1, 2], [2, 0]]].reshape(-1, 2), axis=1)
    base = int(pairs.max(initial=0)) + 1
    keys = np.unique(pairs[:, 0] * base + pairs[:, 1])
    return set(zip((keys // base).tolist(), (keys % base).tolist(), strict=True))
