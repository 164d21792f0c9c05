#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1:${TRELLIS_PG_PORT:-54329} for the repository tests.
# Installs Debian's postgresql when missing. Prints the DATABASE_URL on success; exits 3 when
# PostgreSQL cannot be started here (callers then skip and say so).
set -euo pipefail
port="${TRELLIS_PG_PORT:-54329}"
# One folder per port: a second instance on another port must not wipe the first.
dir="${TRELLIS_PG_DIR:-/tmp/trellis-pg-$port}"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) >&2 || exit 3
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  else
    exit 3
  fi
fi
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if ! run "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q 2>/dev/null; then
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  run "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null || exit 3
  run "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" -l "$dir/log" -w start >/dev/null || exit 3
fi
echo "postgresql://postgres@127.0.0.1:$port/postgres"
