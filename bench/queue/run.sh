#!/usr/bin/env bash
# Runs the queue benchmark with a throwaway PostgreSQL and Redis (see README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/system-packages.sh postgresql redis-server
exec bash scripts/with-postgres.sh bash scripts/with-redis.sh npx tsx bench/queue/run.ts
