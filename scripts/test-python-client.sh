#!/usr/bin/env bash
# The Python client's tests (clients/python, issue 38): a fresh virtual environment, `pip install
# ./clients/python` as a user would, then pytest against a real server the tests start (compiled server,
# temporary data dir, embedded queue, the real engine from .venv). mypy checks the package's types first:
# it ships py.typed, so its users' type checkers read them.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check --prefer-binary ./clients/python 'pytest>=8' 'mypy==2.4.1' 'types-tqdm==4.70.0.20261122'
cd clients/python
"$work/venv/bin/mypy" --no-incremental src/fieldline
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider -s tests "$@"
