#!/usr/bin/env bash
# Runs a command with a throwaway S3 emulator (moto server from PyPI) on loopback; exports TEST_S3_ENDPOINT.
# moto lives in its own virtual environment .venv-tools (not the engine's), created on first use.
# Usage: scripts/with-moto.sh <command…>
set -euo pipefail
cd "$(dirname "$0")/.."
MOTO_VERSION=5.2.5
if ! .venv-tools/bin/python -c "import moto, sys; sys.exit(moto.__version__ != '$MOTO_VERSION')" 2>/dev/null; then
  echo "with-moto: installing moto[server]==$MOTO_VERSION into .venv-tools"
  python3 -m venv .venv-tools
  .venv-tools/bin/python -m pip install --quiet --upgrade pip
  .venv-tools/bin/python -m pip install --quiet "moto[server]==$MOTO_VERSION"
fi
port=$(( 40000 + RANDOM % 10000 ))
.venv-tools/bin/moto_server -H 127.0.0.1 -p "$port" >/tmp/fieldline-moto-$port.log 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -f /tmp/fieldline-moto-$port.log' EXIT
for _ in $(seq 1 100); do
  if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then break; fi
  sleep 0.1
done
export TEST_S3_ENDPOINT="http://127.0.0.1:$port"
echo "with-moto: moto $MOTO_VERSION S3 on port $port"
"$@"
