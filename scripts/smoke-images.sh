#!/usr/bin/env bash
# Builds the server and worker images from the Dockerfile and runs them (issue 23; docs/deployment.md):
#  1. the server image alone (embedded queue, SQLite and local storage in its /data): health reports the
#     engine inside the image, and a capacitor job submitted through the API completes there;
#  2. the distributed shape of compose.yaml: the server image with COMPUTE_BACKEND=bullmq (it only queues)
#     and the worker image running the job, sharing PostgreSQL and Redis (throwaway servers on this
#     machine, scripts/with-postgres.sh and with-redis.sh) and one data volume.
# Needs docker or podman (CONTAINER_CLI picks one), PostgreSQL and Redis; containers use the host network.
# NODE_IMAGE overrides the Dockerfile's base image (e.g. a local mirror where Docker Hub is unreachable).
# Usage: scripts/smoke-images.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${CONTAINER_CLI:-$(command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1 && echo docker || echo podman)}
command -v "$cli" >/dev/null || { echo "smoke-images: no container runtime (docker or podman)" >&2; exit 1; }
base=()
[ -n "${NODE_IMAGE:-}" ] && base=(--build-arg "NODE_IMAGE=$NODE_IMAGE")

if [ "${1:-}" != "--no-build" ]; then
  for target in server worker; do
    echo "smoke-images: building fieldline:$target with $cli"
    "$cli" build "${base[@]}" --target "$target" -t "localhost/fieldline:$target" .
  done
fi

names=()
work=$(mktemp -d /tmp/fieldline-smoke-XXXXXX)
cleanup() {
  for n in "${names[@]}"; do "$cli" rm -f "$n" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

wait_http() {
  for _ in $(seq 1 120); do
    curl -fsS "$1/api/fea/health" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "smoke-images: nothing answers at $1" >&2
  return 1
}

start() { # name image-args…
  local name=$1
  shift
  names+=("$name")
  "$cli" run -d --name "$name" --network host "$@" >/dev/null
}

# 1. The server image alone, as `npm start` runs on one machine.
port=$(( 20000 + RANDOM % 20000 ))
mkdir -p "$work/single" && chmod 777 "$work/single"
start fl-smoke-single -e PORT=$port -v "$work/single:/data" localhost/fieldline:server
wait_http "http://localhost:$port"
npx tsx scripts/smoke-images-client.mts "http://localhost:$port"
echo "smoke-images: the server image runs jobs on its embedded queue"

# 2. Server (queues only) + worker (runs the job), as compose.yaml deploys them.
export SMOKE_CLI=$cli SMOKE_WORK=$work
bash scripts/with-postgres.sh bash scripts/with-redis.sh bash -c '
  set -euo pipefail
  port=$(( 20000 + RANDOM % 20000 ))
  mkdir -p "$SMOKE_WORK/shared" && chmod 777 "$SMOKE_WORK/shared"
  common=(--network host -v "$SMOKE_WORK/shared:/data" -e DATABASE_URL="$TEST_DATABASE_URL"
    -e REDIS_URL="$TEST_REDIS_URL" -e COMPUTE_BACKEND=bullmq)
  trap "$SMOKE_CLI rm -f fl-smoke-server fl-smoke-worker >/dev/null 2>&1 || true" EXIT
  $SMOKE_CLI run -d --name fl-smoke-server "${common[@]}" -e PORT=$port localhost/fieldline:server >/dev/null
  $SMOKE_CLI run -d --name fl-smoke-worker "${common[@]}" localhost/fieldline:worker >/dev/null
  for _ in $(seq 1 120); do curl -fsS "http://localhost:$port/api/fea/health" >/dev/null 2>&1 && break; sleep 0.5; done
  npx tsx scripts/smoke-images-client.mts "http://localhost:$port"
  if ! $SMOKE_CLI logs fl-smoke-worker 2>&1 | grep -q "job completed"; then
    echo "smoke-images: the worker container did not log the job" >&2
    $SMOKE_CLI logs fl-smoke-worker 2>&1 | tail -20 >&2
    exit 1
  fi
  echo "smoke-images: the worker image ran the job the server image queued"
'
echo "smoke-images: passed"
