"""Touchstone 1.1 (.sNp) and CSV exports of a results file's S-parameters.

Touchstone 1.1 allows one real reference impedance for all ports. Renormalised S-parameters use
`portImpedance`; modal (wave_port) S-parameters are normalised to each port's own mode, which the
file states in comment lines together with every port's mode impedance per frequency (as commercial
solvers do for generalised S-parameters). Data: RI format, frequency in Hz, ascending.
For 2-ports the order is S11 S21 S12 S22 (the 1.1 exception); otherwise row by row, at most four
pairs per line.
"""

import math
from pathlib import Path
from typing import Any

EXPORT_STEM = "sparameters"


def _matrix(entry: list[list[list[float]]]) -> list[list[complex]]:
    return [[complex(v[0], v[1]) for v in row] for row in entry]


def touchstone_text(sp: dict[str, Any]) -> str:
    ports = sp["port_ids"]
    n = len(ports)
    r = sp.get("reference_impedance_ohm") or 50.0
    lines = [
        f"! Fieldline full-wave S-parameters, {n}-port, method {sp['method']}",
        f"! Normalization: {sp['normalization']}",
        "! Phasor convention e^{+jwt}; ports in order: " + ", ".join(str(p) for p in ports),
    ]
    modal = not sp.get("reference_impedance_ohm")
    if modal:
        lines += [
            "! R below is nominal: S is normalized to each port's mode impedance, given per frequency",
            "! in the HFSS-style 'Port Impedance' comments (re im per port) after each data block.",
            "! S-parameter uses the power definition",
        ]
    lines.append(f"# HZ S RI R {_fmt(r)}")
    for k, f in enumerate(sp["frequencies"]):
        s = _matrix(sp["matrix"][k])
        if n == 2:
            order = [s[0][0], s[1][0], s[0][1], s[1][1]]
            lines.append(_fmt(f) + " " + " ".join(_pair(v) for v in order))
        else:
            first = True
            for row in s:
                for start in range(0, n, 4):
                    chunk = " ".join(_pair(v) for v in row[start : start + 4])
                    lines.append((_fmt(f) + " " if first else "  ") + chunk)
                    first = False
        if modal:
            lines.append("! Port Impedance " + " ".join(_zpair(z) for z in sp["mode_impedances_ohm"][k]))
    return "\n".join(lines) + "\n"


def csv_text(sp: dict[str, Any]) -> str:
    n = len(sp["port_ids"])
    names = [f"S{q + 1}{p + 1}" for q in range(n) for p in range(n)]
    header = ["frequency_hz"] + [f"{nm}_{part}" for nm in names for part in ("re", "im", "db", "deg")]
    rows = [",".join(header)]
    for k, f in enumerate(sp["frequencies"]):
        s = _matrix(sp["matrix"][k])
        vals = [_fmt(f)]
        for q in range(n):
            for p in range(n):
                v = s[q][p]
                vals += [
                    _fmt(v.real),
                    _fmt(v.imag),
                    _fmt(20 * math.log10(max(abs(v), 1e-300))),
                    _fmt(math.degrees(math.atan2(v.imag, v.real))),
                ]
        rows.append(",".join(vals))
    return "\n".join(rows) + "\n"


def write_network_exports(job_dir: Path, results: dict[str, Any]) -> list[str]:
    sp = results.get("s_parameters")
    if not sp or not sp.get("frequencies"):
        return []
    n = len(sp["port_ids"])
    names = [f"{EXPORT_STEM}.s{n}p", f"{EXPORT_STEM}.csv"]
    (job_dir / names[0]).write_text(touchstone_text(sp), encoding="ascii")
    (job_dir / names[1]).write_text(csv_text(sp), encoding="ascii")
    return names


def _fmt(x: float) -> str:
    return f"{x:.12g}"


def _pair(v: complex) -> str:
    return f"{v.real:.12g} {v.imag:.12g}"


def _zpair(z: Any) -> str:
    re_im = z if isinstance(z, list) else [z, 0.0]
    return f"{re_im[0]:.12g} {re_im[1]:.12g}"
