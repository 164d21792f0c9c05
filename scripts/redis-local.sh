#!/usr/bin/env bash
# Starts a throwaway Redis on 127.0.0.1 for the queue-mode tests and benchmarks (as
# scripts/postgres-local.sh does for PostgreSQL). Installs Debian's redis-server when missing.
# The port is ${TRELLIS_REDIS_PORT}, or the first free one from 56379; an instance this script
# already started on that port is reused (idempotent). Prints the REDIS_URL on success; exits 3
# when Redis cannot be started here (callers then skip and say so).
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) >&2 || exit 3
  else
    exit 3
  fi
fi
ping() { redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null | grep -q PONG; }
ours() { [ -f "/tmp/trellis-redis-$1/pid" ] && kill -0 "$(cat "/tmp/trellis-redis-$1/pid")" 2>/dev/null; }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ -n "${TRELLIS_REDIS_PORT:-}" ]; then
  port="$TRELLIS_REDIS_PORT"
else
  port=56379
  # Reuse our own instance; otherwise skip ports something else holds.
  while ! ours "$port" && ! port_free "$port"; do port=$((port + 1)); done
fi
# One folder per port: a second instance on another port must not touch the first.
dir="${TRELLIS_REDIS_DIR:-/tmp/trellis-redis-$port}"
if ! ping "$port"; then
  rm -rf "$dir"
  mkdir -p "$dir"
  redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no \
    --daemonize yes --pidfile "$dir/pid" --logfile "$dir/log" >/dev/null || exit 3
  for _ in $(seq 1 50); do ping "$port" && break; sleep 0.1; done
  ping "$port" || exit 3
fi
echo "redis://127.0.0.1:$port"
