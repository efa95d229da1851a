#!/usr/bin/env bash
# Creates the engine's virtual environment .venv (pinned NGSolve/Netgen, gmsh, numpy, scipy, MPI) when missing
# or out of date. Idempotent: a stamp file records the pyproject.toml it was built from.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
if ! "$PYTHON" -c 'import sys; assert sys.version_info[:2] == (3, 11)' 2>/dev/null; then
  echo "setup-engine: Python 3.11 is required (found: $("$PYTHON" --version 2>&1)). Install python3.11 and python3.11-venv." >&2
  exit 1
fi

stamp=.venv/.fieldline-stamp
want=$(sha256sum engine/pyproject.toml | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && .venv/bin/python -c 'import ngsolve, gmsh' 2>/dev/null; then
  exit 0
fi

echo "setup-engine: installing the engine into .venv (first run takes about a minute)"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv || {
    echo "setup-engine: could not create a virtual environment; on Debian/Ubuntu: sudo apt-get install python3.11-venv" >&2
    exit 1
  }
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet --only-binary mpi4py,mpich -e 'engine[dev]'

# gmsh's wheel loads X/OpenGL libraries at import even headless (notes: pygmsh#584), and NGSolve's links
# libquadmath without bundling it: a slim Debian has none of them (found building the container image).
if ! .venv/bin/python -c 'import ngsolve, gmsh' 2>/tmp/fieldline-gmsh-import.log; then
  missing="libquadmath0 libgomp1 libgl1 libglu1-mesa libxcursor1 libxft2 libxinerama1 libxrender1 libxext6"
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup-engine: installing NGSolve's and gmsh's system libraries: $missing"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null
  else
    echo "setup-engine: NGSolve or gmsh cannot load its system libraries:" >&2
    cat /tmp/fieldline-gmsh-import.log >&2
    echo "Install them with: sudo apt-get install $missing" >&2
    exit 1
  fi
fi
.venv/bin/python -c 'import ngsolve, netgen, gmsh, numpy, scipy, mpi4py' || exit 1
[ -x .venv/bin/mpiexec ] || { echo "setup-engine: the mpich wheel installed no .venv/bin/mpiexec" >&2; exit 1; }
echo "$want" > "$stamp"
echo "setup-engine: engine ready"
