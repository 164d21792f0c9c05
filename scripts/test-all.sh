#!/usr/bin/env bash
# `npm test`: every check, from a fresh clone (after `npm ci`). Installs Debian's chromium when
# missing, starts a throwaway PostgreSQL for the repository tests and a Redis for the queue-mode tests
# when it can, and fails on the
# first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s ==\n' "$*"; }

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  step "Installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

step "Prisma clients"
npx tsx scripts/prisma-schemas.ts --check
npx tsx scripts/prisma-schemas.ts

step "Typecheck"
npx tsc --noEmit -p .

step "Lint"
npx biome check .

step "Layer rules"
npx tsx scripts/check-layers.ts

# Runs a script that prints what some tests need (a URL, a path) and exports it as the named
# variable; when the script fails, says which tests are SKIPPED (they check the variable).
optional() {
  local variable=$1 found=$2 skipped=$3 value
  shift 3
  if value=$("$@"); then
    export "$variable=$value"
    echo "$found $value"
  else
    echo "$skipped"
  fi
}

step "PostgreSQL for the repository tests"
optional TRELLIS_TEST_POSTGRES_URL "PostgreSQL at" \
  "PostgreSQL could not be started on this machine: the Postgres repository tests are SKIPPED." \
  bash scripts/postgres-local.sh

step "Redis for the queue-mode integration tests"
optional TRELLIS_TEST_REDIS_URL "Redis at" \
  "Redis could not be started on this machine: the queue-mode integration tests are SKIPPED." \
  bash scripts/redis-local.sh

step "The official Python SDKs of OpenAI and MCP (clients of the published API, an MCP server for the tool source) and jinja2 (the Python the code sandbox stand-in runs)"
optional TRELLIS_TEST_PYTHON "Python with the openai and mcp SDKs and jinja2 at" \
  "The Python openai and mcp SDKs and jinja2 could not be installed on this machine: their client and server tests, and the Jinja2 template run, are SKIPPED." \
  bash scripts/python-sdks.sh

step "Unit and integration tests"
npx vitest run

step "Build"
npx next build

step "End-to-end tests (Playwright, Debian chromium)"
npx playwright test

step "Node 22 and 24 (database tests and a browser smoke test; binaries from the npm registry)"
bash scripts/node-versions.sh
