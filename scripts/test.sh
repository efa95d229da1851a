#!/usr/bin/env bash
# `npm test`: typecheck, lint, unit/integration tests (Vitest, pytest), the server suite again on
# PostgreSQL, and end-to-end browser tests. Runs every step, then prints a summary; fails if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export CI="${CI:-1}" FORCE_COLOR=0 NO_COLOR=1

# A C compiler builds the forked spares' launcher (ensure-deps.mjs → build-launcher.mjs); without one the
# Python launcher is used and tested instead, so a missing compiler is not a failure.
bash scripts/system-packages.sh gcc libc6-dev || echo "test.sh: no C compiler; the Python spare launcher is used"
node scripts/ensure-deps.mjs || exit 1

results=()
failed=0
step() {
  local name=$1; shift
  echo
  echo "=== ${name} ==="
  local t0=$SECONDS
  if "$@"; then
    results+=("PASS  ${name} ($((SECONDS - t0)) s)")
  else
    results+=("FAIL  ${name} ($((SECONDS - t0)) s)")
    failed=1
  fi
}

step "typecheck (tsc)" npm run --silent typecheck
step "lint (biome)" npx biome check .
step "lint (ruff)" bash -c '.venv/bin/ruff check engine clients/python && .venv/bin/ruff format --check engine clients/python'
step "engine tests (pytest, writes docs/validation/report.json)" bash -c 'cd engine && FIELDLINE_VALIDATION_REPORT=../docs/validation/report.json ../.venv/bin/python -m pytest -q'
step "import rules and the README map (vitest, architecture/)" npx vitest run --root architecture
step "contracts tests (vitest)" npx vitest run --root contracts --passWithNoTests
# jq and curl: the environment's "Copy as curl" commands are run by the web and e2e tests.
step "system tools for the exported curl commands (jq, curl)" bash scripts/system-packages.sh jq curl
step "web tests (vitest)" npx vitest run --root web
step "server tests on SQLite (vitest)" npx vitest run --root server
if bash scripts/system-packages.sh postgresql redis-server; then
  # The distributed queue suite (two `fieldline worker` processes on BullMQ) and the S3 storage test run here.
  step "server tests on PostgreSQL + Redis + S3 emulator (vitest)" \
    bash scripts/with-postgres.sh bash scripts/with-redis.sh bash scripts/with-moto.sh npx vitest run --root server
else
  results+=("FAIL  server tests on PostgreSQL + Redis: PostgreSQL or Redis could not be installed")
  failed=1
fi
step "web build (vite)" npm run --silent build -w web
step "Python client and CLI (fresh venv, pip install ./clients/python, pytest against a real server)" \
  bash scripts/test-python-client.sh
if bash scripts/system-packages.sh chromium; then
  # Under the S3/Batch emulator for the AWS Batch path (tests/aws-batch.e2e.ts).
  step "end-to-end tests (playwright-core + chromium)" bash scripts/with-moto.sh npx vitest run --root e2e
else
  results+=("FAIL  end-to-end tests: chromium is missing (sudo apt-get install chromium)")
  failed=1
fi

echo
echo "=== summary ==="
printf '%s\n' "${results[@]}"
echo "total: ${SECONDS} s"
exit $failed
