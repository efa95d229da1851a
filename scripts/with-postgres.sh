#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server; exports TEST_DATABASE_URL for it.
# Usage: scripts/with-postgres.sh <command…>
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ]; then
  echo "with-postgres: PostgreSQL is not installed (sudo apt-get install postgresql)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/fieldline-pg-XXXXXX)
port=$(( 20000 + RANDOM % 20000 ))
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U fieldline --auth=trust -E UTF8 >/dev/null
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off" start >/dev/null
export TEST_DATABASE_URL="postgres://fieldline@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on port $port"
"$@"
