#!/usr/bin/env bash
# Runs a command with a throwaway Redis server on loopback; exports TEST_REDIS_URL for it.
# Usage: scripts/with-redis.sh <command…>
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
  echo "with-redis: Redis is not installed (sudo apt-get install redis-server)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/fieldline-redis-XXXXXX)
port=$(( 20000 + RANDOM % 20000 ))
# No persistence and no eviction (BullMQ needs noeviction); loopback only.
redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no \
  --maxmemory-policy noeviction --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/log" >/dev/null
cleanup() {
  if [ -f "$dir/redis.pid" ]; then kill "$(cat "$dir/redis.pid")" 2>/dev/null || true; fi
  sleep 0.2
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 1 50); do
  redis-cli -p "$port" ping >/dev/null 2>&1 && break
  sleep 0.1
done
export TEST_REDIS_URL="redis://127.0.0.1:$port"
echo "with-redis: Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) on port $port"
"$@"
