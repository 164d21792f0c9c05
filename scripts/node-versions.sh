#!/usr/bin/env bash
# A step of `npm test`: the product must run on Node 20, 22 and 24. The suite runs on the
# machine's Node; this runs the database, engine-recovery, run-service and model-transport tests
# (the transport reads the socket's own stream, whose behaviour is Node's) and a browser
# smoke test (sign in, run a workflow on the demo model and inspect it, publish, the published API's headers) on Node 22 and 24 as well,
# with the same node_modules (better-sqlite3 is chosen per Node at load time:
# packages/better-sqlite3-select). The Node binaries come from the npm registry's `node` package.
set -euo pipefail
cd "$(dirname "$0")/.."

for major in ${TRELLIS_NODE_VERSIONS:-22 24}; do
  node_bin=$(npm exec --yes --package="node@$major" -- node -p process.execPath)
  version=$("$node_bin" --version)
  printf '\n-- Node %s (%s) --\n' "$version" "$node_bin"
  case "$version" in v"$major".*) ;; *) echo "expected Node $major, got $version" >&2; exit 1 ;; esac
  # npm, tsx and the server are started through `env node`: make sure that is this Node.
  [ "$(PATH="$(dirname "$node_bin"):$PATH" node --version)" = "$version" ]
  PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run \
    lib/db lib/services/durable-resume.test.ts lib/services/run-service.test.ts \
    lib/llm/openai/http-fetch.test.ts lib/llm/openai/openai-language-model.test.ts lib/llm/openai/resilience.test.ts
  PATH="$(dirname "$node_bin"):$PATH" TRELLIS_E2E_PORT="${TRELLIS_NODE_VERSIONS_PORT:-3270}" \
    "$node_bin" node_modules/@playwright/test/cli.js test e2e/home.spec.ts e2e/publish.spec.ts e2e/model-calls.spec.ts e2e/security-headers.spec.ts
done
