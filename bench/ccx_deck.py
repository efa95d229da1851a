"""Shared by the CalculiX benches (bench/thermal, bench/vibration): one Netgen mesh as quadratic tetrahedra
for CalculiX 2.20 (C3D10 / DC3D10), node sets and element faces of named boundaries, and readers for the
.frd (nodal results) and .dat (eigenvalues) files CalculiX writes.

Node numbering: CalculiX node i + 1 is mesh vertex i for the first nv nodes (so vertex results of the two
codes line up by index); mid-side nodes follow, at the midpoints of the straight edges.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

# Faces of a 10-node tetrahedron by corner (CalculiX manual: 1 = 1-2-3, 2 = 1-4-2, 3 = 2-4-3, 4 = 3-4-1).
TET_FACES = {1: (0, 1, 2), 2: (0, 3, 1), 3: (1, 3, 2), 4: (2, 3, 0)}
EDGES = ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3))  # mid-side nodes 5..10


class QuadraticTets:
    """The mesh's tetrahedra with mid-side nodes, oriented for a positive Jacobian."""

    def __init__(self, data: dict):
        self.vertices = np.asarray(data["vertices"], dtype=float)
        self.faces = np.asarray(data["faces"], dtype=np.int64)
        tets = np.asarray(data["tetrahedra"], dtype=np.int64).copy()
        v = self.vertices
        a, b, c, d = (v[tets[:, k]] for k in range(4))
        flip = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) < 0
        tets[flip, 1], tets[flip, 2] = tets[flip, 2], tets[flip, 1].copy()
        self.tets = tets
        pairs = np.concatenate([np.sort(tets[:, [i, j]], axis=1) for i, j in EDGES])
        unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
        self.nv = len(v)
        self.edge_pairs = unique  # (ne, 2) vertex pairs, sorted
        mids = self.nv + inverse.reshape(len(EDGES), -1).T  # (nt, 6)
        self.elements = np.concatenate([tets, mids], axis=1)  # 0-based, CalculiX order
        self.points = np.concatenate([v, v[unique].mean(axis=1)])

    def _edge_index(self, pairs: np.ndarray) -> np.ndarray:
        keys = self.edge_pairs[:, 0] * self.nv + self.edge_pairs[:, 1]
        want = np.sort(pairs, axis=1)
        return np.searchsorted(keys, want[:, 0] * self.nv + want[:, 1])

    def face_nodes(self, face_ids: list[int]) -> np.ndarray:
        """1-based nodes (corners and mid-sides) of the given 1-based boundary faces."""
        tri = self.faces[np.asarray(face_ids) - 1]
        pairs = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
        mids = self.nv + self._edge_index(pairs)
        return np.unique(np.concatenate([tri.ravel(), mids])) + 1

    def element_faces(self, face_ids: list[int]) -> list[tuple[int, int]]:
        """(1-based element, CalculiX face number) of each given boundary face."""
        wanted = {tuple(sorted(int(x) for x in self.faces[i - 1])) for i in face_ids}
        out = []
        for label, corners in TET_FACES.items():
            keys = np.sort(self.tets[:, corners], axis=1)
            for e in np.nonzero([tuple(k) in wanted for k in keys.tolist()])[0]:
                out.append((int(e) + 1, label))
        return sorted(out)

    def deck_mesh(self, element_type: str) -> list[str]:
        lines = ["*NODE, NSET=NALL"]
        lines += [
            f"{i + 1}, {p[0]:.12g}, {p[1]:.12g}, {p[2]:.12g}"
            for i, p in enumerate(self.points)
        ]
        lines.append(f"*ELEMENT, TYPE={element_type}, ELSET=EALL")
        lines += [
            f"{e + 1}, " + ", ".join(str(n + 1) for n in el)
            for e, el in enumerate(self.elements.tolist())
        ]
        return lines


def nset(name: str, nodes: np.ndarray) -> list[str]:
    ids = [int(n) for n in nodes]
    return [f"*NSET, NSET={name}"] + [
        ", ".join(str(n) for n in ids[i : i + 12]) for i in range(0, len(ids), 12)
    ]


def frd_blocks(path: Path, name: str, count: int) -> list[np.ndarray]:
    """Every nodal block `name` (NDTEMP, DISP, …) in an ASCII .frd: (nodes, count) arrays by node order."""
    out = []
    with open(path) as fh:
        lines = iter(fh)
        for line in lines:
            if line.startswith(" -4") and line.split()[1] == name:
                rows = []
                for row in lines:
                    if row.startswith(" -3"):
                        break
                    if row.startswith(" -1"):
                        rows.append(
                            [
                                float(row[13 + 12 * k : 25 + 12 * k])
                                for k in range(count)
                            ]
                        )
                out.append(np.array(rows))
    return out


def dat_frequencies(path: Path) -> np.ndarray:
    """Eigenfrequencies (cycles/time) from the *FREQUENCY table of a CalculiX .dat file."""
    text = path.read_text()
    block = text[text.index("E I G E N V A L U E   O U T P U T") :]
    out = []
    for line in block.splitlines()[1:]:
        m = re.match(r"\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", line)
        if m:
            out.append(float(m.group(4)))
        elif out and "P A R T I C I P A T I O N" in line:
            break
    return np.array(out)


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> dict:
    """Wall and CPU (user + system) seconds and peak RSS (MB) of one run, from GNU time -v."""
    started = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-v", *cmd],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    cpu = sum(
        float(m)
        for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", proc.stderr)
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
        raise SystemExit(f"{cmd[0]} failed in {cwd}")
    return {
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "peak_mb": round(int(peak.group(1)) / 1024, 1) if peak else None,
    }


def write_json(path: Path, data) -> None:
    """Indented JSON with exponents as the repository's formatter writes them (1e-5, not 1e-05)."""
    text = json.dumps(data, indent=2)
    text = re.sub(
        r"(\d)e([+-])0*(\d)",
        lambda m: m.group(1) + "e" + ("-" if m.group(2) == "-" else "") + m.group(3),
        text,
    )
    path.write_text(text + "\n")


def side_by_side(out: Path, deck: str, repeat: int, threads: int) -> dict:
    """Fieldline (OUT/fieldline: `python -m fieldline_engine solve`) and CalculiX (OUT/ccx: `ccx -i deck`)
    in turn, A B A B, `repeat` pairs: medians of wall and CPU seconds and peak memory, ratios pair by pair."""
    env = dict(os.environ)
    env.update(
        FIELDLINE_THREADS=str(threads),
        OMP_NUM_THREADS=str(threads),
        CCX_NPROC_EQUATION_SOLVER=str(threads),
        PYTHONPATH=str(Path(__file__).resolve().parents[1] / "engine"),
    )
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(
            timed(
                [sys.executable, "-m", "fieldline_engine", "solve", "--job", "."],
                out / "fieldline",
                env,
            )
        )
        theirs.append(timed(["ccx", "-i", deck], out / "ccx", env))
        print(f"  fieldline {ours[-1]}  calculix {theirs[-1]}", flush=True)

    def median(runs, key):
        return statistics.median(r[key] for r in runs)

    def ratio(key):
        return statistics.median(
            a[key] / b[key] for a, b in zip(ours, theirs, strict=True)
        )

    return {
        "threads": threads,
        "repeats": repeat,
        "fieldline_s": median(ours, "seconds"),
        "peer_s": median(theirs, "seconds"),
        "ratio": ratio("seconds"),
        "fieldline_cpu_s": median(ours, "cpu_seconds"),
        "peer_cpu_s": median(theirs, "cpu_seconds"),
        "cpu_ratio": ratio("cpu_seconds"),
        "fieldline_mb": median(ours, "peak_mb"),
        "peer_mb": median(theirs, "peak_mb"),
        "memory_ratio": ratio("peak_mb"),
    }


def add_row(table: Path, row: dict, keys: tuple[str, ...]) -> None:
    """Adds (or replaces: same values of `keys`) a row of a bench's results.json."""
    rows = json.loads(table.read_text()) if table.exists() else []
    rows = [r for r in rows if any(r.get(k) != row.get(k) for k in keys)]
    write_json(table, sorted(rows + [row], key=lambda r: [str(r.get(k)) for k in keys]))


def reuse(out: Path, match: dict, config_update: dict) -> dict | None:
    """The mesh and decks of an earlier `prepare` in OUT when its meta.json matches (then only the Fieldline
    config's `config_update` keys change), else None."""
    try:
        meta = json.loads((out / "meta.json").read_text())
    except FileNotFoundError:
        return None
    if any(meta.get(k) != v for k, v in match.items()):
        return None
    job_path = out / "fieldline" / "job.json"
    job = json.loads(job_path.read_text())
    job["config"].update(config_update)
    job_path.write_text(json.dumps(job))
    meta.update(config_update)
    write_json(out / "meta.json", meta)
    return meta
