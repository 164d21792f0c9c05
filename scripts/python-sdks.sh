#!/usr/bin/env bash
# Prints the path of a Python that has the official Python SDKs of OpenAI (`openai`) and MCP (`mcp`),
# in a venv under node_modules/.cache, installing them with pip when missing: the clients of the
# OpenAI-compatible API and MCP server tests (app/api/v1/chat/completions/openai-python-sdk.test.ts,
# app/api/v1/mcp/mcp-sdk.test.ts), and the MCP server the MCP tool source is tested against
# (lib/tools/mcp/mcp-python-server.test.ts); and jinja2, which dify-sandbox's image has, for the Python the
# code sandbox stand-in runs (lib/tools/sandbox/testing/dify-sandbox-stub.ts). Exits 1, with the reason on
# stderr, when this machine has no python3 or pip reaches no index that has them.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="node_modules/.cache/trellis-python-sdks"
python="$PWD/$venv/bin/python"
if [ -x "$python" ] && "$python" -c "import openai, mcp, jinja2" >/dev/null 2>&1; then
  echo "$python"
  exit 0
fi
if ! command -v python3 >/dev/null; then
  echo "python3 is not installed" >&2
  exit 1
fi
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
log="$venv.log"
if ! python3 -m venv "$venv" >"$log" 2>&1; then
  echo "python3 -m venv failed:" >&2
  tail -5 "$log" >&2
  exit 1
fi
# An index that cannot be reached fails at once instead of after pip's retries (pip's own
# configuration, mirrors included, decides where the SDK comes from).
if ! "$venv/bin/pip" install --disable-pip-version-check --retries 0 --timeout 20 openai mcp jinja2 >>"$log" 2>&1; then
  echo "pip could not install the openai and mcp SDKs and jinja2:" >&2
  grep -v '^WARNING' "$log" | tail -5 >&2
  exit 1
fi
"$python" -c "import openai, mcp, jinja2" >&2
echo "$python"
